import ChevronLeftIcon from '../../../lib/icons/chevron-left';
import ChevronRightIcon from '../../../lib/icons/chevron-right';
import HourglassEmptyIcon from '../../../lib/icons/hourglass-empty';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { IntegrationCaregiver } from '@marpe/shared';
import { useTranslation } from 'react-i18next';
import type { DiaryView } from '../clinic-time';

/**
 * Above the grid: today / previous / next, the dates shown as the section's heading, day or
 * week, which caregiver, and who waits. Every control is a named button or field.
 */
export function DiaryToolbar({
  view,
  heading,
  caregivers,
  caregiverId,
  waiting,
  onToday,
  onStep,
  onView,
  onCaregiver,
  onWaitlist,
}: {
  view: DiaryView;
  heading: string;
  caregivers: IntegrationCaregiver[];
  caregiverId: number | null;
  /** How many wait for the day shown (null while unknown). */
  waiting: number | null;
  onToday: () => void;
  onStep: (step: 1 | -1) => void;
  onView: (view: DiaryView) => void;
  onCaregiver: (caregiverId: number | null) => void;
  onWaitlist: () => void;
}) {
  const { t } = useTranslation('diary');
  const rtl = useTheme().direction === 'rtl';
  // "Previous" points to where the reading starts: right in Hebrew, left in English.
  const Back = rtl ? ChevronRightIcon : ChevronLeftIcon;
  const Forward = rtl ? ChevronLeftIcon : ChevronRightIcon;
  return (
    <Stack
      direction="row"
      useFlexGap
      spacing={1.5}
      sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 2 }}
      role="group"
      aria-label={t('toolbar.label')}
    >
      <Button variant="outlined" onClick={onToday}>
        {t('toolbar.today')}
      </Button>
      <IconButton
        onClick={() => onStep(-1)}
        aria-label={t(view === 'day' ? 'toolbar.previousDay' : 'toolbar.previousWeek')}
      >
        <Back />
      </IconButton>
      <IconButton
        onClick={() => onStep(1)}
        aria-label={t(view === 'day' ? 'toolbar.nextDay' : 'toolbar.nextWeek')}
      >
        <Forward />
      </IconButton>
      <Typography
        variant="h2"
        aria-live="polite"
        sx={{ minWidth: { md: 260 }, flexGrow: { xs: 1, md: 0 } }}
      >
        {heading}
      </Typography>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={view}
        onChange={(_event, next: DiaryView | null) => {
          if (next) onView(next);
        }}
        aria-label={t('toolbar.view')}
        sx={{
          bgcolor: 'background.paper',
          '& .MuiToggleButton-root': { color: 'text.primary', px: 2 },
        }}
      >
        <ToggleButton value="day">{t('toolbar.day')}</ToggleButton>
        <ToggleButton value="week">{t('toolbar.week')}</ToggleButton>
      </ToggleButtonGroup>
      <TextField
        select
        size="small"
        label={t('toolbar.caregiver')}
        value={caregiverId ?? 'all'}
        onChange={(e) => onCaregiver(e.target.value === 'all' ? null : Number(e.target.value))}
        sx={{ width: 220 }}
        fullWidth={false}
      >
        <MenuItem value="all">{t('toolbar.allCaregivers')}</MenuItem>
        {caregivers.map((c) => (
          <MenuItem key={c.id} value={c.id}>
            {c.name}
          </MenuItem>
        ))}
      </TextField>
      <Button variant="outlined" startIcon={<HourglassEmptyIcon />} onClick={onWaitlist}>
        {waiting === null
          ? t('toolbar.waitlistLoading')
          : t('toolbar.waitlist', { count: waiting })}
      </Button>
    </Stack>
  );
}
