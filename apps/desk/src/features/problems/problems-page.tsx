import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { OwnersOnly } from '../../lib/owners-only';
import { Page } from '../../lib/page';
import { useClinicZoneQuery } from '../../lib/clinic-dates';
import { useCaregivers } from './api/calendar-sync';
import { CalendarConflicts, CalendarSyncState } from './components/calendar-problems';
import { FailedMessages } from './components/failed-messages';

/** `/desk/problems` (owners): messages that did not go, calendar sync states and conflicts. */
export function ProblemsPage() {
  return (
    <OwnersOnly>
      <Problems />
    </OwnersOnly>
  );
}

function Problems() {
  const { t } = useTranslation('problems');
  const zone = useClinicZoneQuery().data;
  const caregivers = useCaregivers().data;
  return (
    <Page title={t('title')}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('intro')}
      </Typography>
      <Stack spacing={3}>
        <FailedMessages zone={zone} />
        <CalendarSyncState zone={zone} caregivers={caregivers} />
        <CalendarConflicts zone={zone} caregivers={caregivers} />
      </Stack>
    </Page>
  );
}
