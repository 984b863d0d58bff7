import { privacyDocument } from './content/privacy';
import { LegalPage } from './legal-page';

export function PrivacyPage() {
  return <LegalPage content={privacyDocument} />;
}
