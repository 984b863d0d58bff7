import { accessibilityDocument } from './content/accessibility';
import { LegalPage } from './legal-page';

export function AccessibilityPage() {
  return <LegalPage content={accessibilityDocument} />;
}
