import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { errorText } from '../../lib/field-errors';
import { Page } from '../../lib/page';
import { PageLoading } from '../../lib/page-loading';
import { useClinic } from '../../lib/session';
import { useSetupChecklist } from '../../lib/setup-checklist';
import { ClinicPageLink, stepPath, StepStateChip } from '../../lib/setup-step';

/**
 * `/desk/setup`: the owner's set-up checklist. Each step with its state (complete by the clinic's
 * data, marked done, or not yet), the way to its form, the progress and whether patients can book
 * yet. All of it comes from the server, so the owner can leave and come back.
 */
export function SetupPage() {
  const { t } = useTranslation('setup');
  const { isOwner } = useClinic();
  const checklist = useSetupChecklist();
  const progressId = useId();
  const data = checklist.data;
  const completed = data ? data.steps.filter((s) => s.complete || s.done).length : 0;
  const total = data?.steps.length ?? 0;
  const missing = data
    ? data.steps
        .filter((s) => s.required && !s.complete)
        .map((s) => t(`steps.${s.step}.title`))
        .join(', ')
    : '';

  return (
    <Page title={t('title')} actions={<ClinicPageLink />} width="md">
      <Typography sx={{ mb: 2 }}>{t('intro')}</Typography>
      {checklist.isError ? <Alert severity="error">{errorText(t, checklist.error)}</Alert> : null}
      {checklist.isPending ? <PageLoading /> : null}
      {data ? (
        <Stack spacing={2}>
          <Paper sx={{ p: 2 }}>
            <Typography id={progressId} sx={{ fontWeight: 500, mb: 1 }}>
              {t('progress', { count: completed, total })}
            </Typography>
            <LinearProgress
              variant="determinate"
              value={total === 0 ? 0 : (completed / total) * 100}
              aria-labelledby={progressId}
              sx={{ height: 8, borderRadius: 4, mb: 2 }}
            />
            {data.ready_for_patients ? (
              <Alert severity="success">{t('ready.yes')}</Alert>
            ) : (
              <Alert severity="warning">{t('ready.no', { steps: missing })}</Alert>
            )}
          </Paper>
          {isOwner ? null : <Alert severity="info">{t('readOnly')}</Alert>}
          <Box component="ol" aria-label={t('stepsLabel')} sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {data.steps.map((state, index) => (
              <Paper component="li" key={state.step} sx={{ p: 2, mb: 1.5 }}>
                <Stack
                  direction="row"
                  spacing={2}
                  useFlexGap
                  sx={{ alignItems: 'center', flexWrap: 'wrap' }}
                >
                  <Box
                    aria-hidden
                    sx={{
                      width: 32,
                      height: 32,
                      borderRadius: '50%',
                      bgcolor: 'secondary.main',
                      display: 'grid',
                      placeItems: 'center',
                      fontWeight: 700,
                      flexShrink: 0,
                    }}
                  >
                    {index + 1}
                  </Box>
                  <Box sx={{ flex: '1 1 260px', minWidth: 0 }}>
                    <Typography variant="h2" sx={{ fontSize: '1.1rem' }}>
                      {t(`steps.${state.step}.title`)}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {t(`steps.${state.step}.description`)}
                    </Typography>
                    {state.required ? (
                      <Typography variant="body2" sx={{ color: 'warning.main', fontWeight: 500 }}>
                        {t('required')}
                      </Typography>
                    ) : null}
                  </Box>
                  <StepStateChip state={state} />
                  {isOwner ? (
                    <Button variant="outlined" component={RouterLink} to={stepPath(state.step)}>
                      {t('open')}
                      <span className="visually-hidden"> {t(`steps.${state.step}.title`)}</span>
                    </Button>
                  ) : null}
                </Stack>
              </Paper>
            ))}
          </Box>
        </Stack>
      ) : null}
    </Page>
  );
}
