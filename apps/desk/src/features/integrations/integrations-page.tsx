import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { OwnersOnly } from '../../lib/owners-only';
import { Page } from '../../lib/page';
import { ApiKeysSection } from './components/api-keys-section';
import { CalendarFeedsSection } from './components/calendar-feeds-section';
import { WebhooksSection } from './components/webhooks-section';

/**
 * `/desk/integrations` (owners): what connects the clinic to other systems: API keys, webhook
 * endpoints with their deliveries, and the caregivers' calendar feeds. Every secret is shown once.
 */
export function IntegrationsPage() {
  return (
    <OwnersOnly>
      <Integrations />
    </OwnersOnly>
  );
}

function Integrations() {
  const { t } = useTranslation('integrations');
  return (
    <Page title={t('title')}>
      <Stack spacing={3}>
        <ApiKeysSection />
        <WebhooksSection />
        <CalendarFeedsSection />
      </Stack>
    </Page>
  );
}
