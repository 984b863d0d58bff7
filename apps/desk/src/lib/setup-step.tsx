import ArrowBackIcon from './icons/arrow-back';
import ArrowForwardIcon from './icons/arrow-forward';
import CheckCircleIcon from './icons/check-circle';
import OpenInNewIcon from './icons/open-in-new';
import RadioButtonUncheckedIcon from './icons/radio-button-unchecked';
import TaskAltIcon from './icons/task-alt';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import {
  setupSteps,
  type SetupChecklist,
  type SetupStep,
  type SetupStepState,
} from '@marpe/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { api } from './api';
import { errorText } from './field-errors';
import { useNotify } from './notify';
import { Page } from './page';
import { useClinic } from './session';
import { setupChecklistQueryKey, useSetupChecklist } from './setup-checklist';

/*
 * The frame of every set-up step's page, whichever feature holds the step's form. Its words are
 * the set-up checklist's (the `setup` namespace), so a step reads the same on its page and in the
 * checklist.
 */

/** `PUT /api/integration/setup/steps/:step`: the owner says a set-up step is done, or not; the
 * server answers the checklist. */
export const markSetupStep = (step: SetupStep, done: boolean) =>
  api<SetupChecklist>(`/api/integration/setup/steps/${encodeURIComponent(step)}`, {
    method: 'PUT',
    body: { done },
  });

/** Where a step's form lives in the desk. */
export const stepPath = (step: SetupStep) => `/setup/${step}`;

/** The step after this one, or null after the last. */
export function nextStep(step: SetupStep): SetupStep | null {
  return setupSteps[setupSteps.indexOf(step) + 1] ?? null;
}

/** A step's state in words and an icon, never by colour alone. */
export function StepStateChip({ state }: { state: SetupStepState }) {
  const { t } = useTranslation('setup');
  if (state.complete) {
    return (
      <Chip
        size="small"
        color="success"
        icon={<CheckCircleIcon />}
        label={t(state.done ? 'state.done' : 'state.complete')}
      />
    );
  }
  if (state.done) {
    return <Chip size="small" variant="outlined" icon={<TaskAltIcon />} label={t('state.done')} />;
  }
  return (
    <Chip
      size="small"
      variant="outlined"
      icon={<RadioButtonUncheckedIcon />}
      label={t('state.todo')}
    />
  );
}

/** The clinic page, in a new tab (said to screen readers too): what patients will see of what
 * the owner sets here. */
export function ClinicPageLink() {
  const { t } = useTranslation('setup');
  const checklist = useSetupChecklist();
  if (!checklist.data) return null;
  return (
    <Button
      variant="outlined"
      component="a"
      href={checklist.data.clinic_page_path}
      target="_blank"
      rel="noopener"
      endIcon={<OpenInNewIcon />}
    >
      {t('clinicPage')}
      <span className="visually-hidden"> {t('newTab')}</span>
    </Button>
  );
}

/** Marks the step done once its form is saved, and says so. */
export function useSavedStep(step: SetupStep) {
  const { t } = useTranslation('setup');
  const queryClient = useQueryClient();
  const notify = useNotify();
  return useCallback(async () => {
    try {
      queryClient.setQueryData(setupChecklistQueryKey, await markSetupStep(step, true));
      notify(t('savedAndDone'));
    } catch {
      // Saved all the same; the mark can be set below.
      notify(t('common:saved'));
      void queryClient.invalidateQueries({ queryKey: setupChecklistQueryKey });
    }
  }, [notify, queryClient, step, t]);
}

/**
 * A set-up step's page, the same for all nine: its title, where it stands in the checklist, the
 * clinic page as patients see it, the step's form and its own actions (owners only; others read
 * that the set-up is the owners'), and at the foot its mark and the way to the next step.
 */
export function StepPage({
  step,
  actions,
  width = 'md',
  children,
}: {
  step: SetupStep;
  actions?: ReactNode;
  width?: 'md' | 'lg';
  children: ReactNode;
}) {
  const { t } = useTranslation('setup');
  const { isOwner } = useClinic();
  const checklist = useSetupChecklist();
  const next = nextStep(step);
  const rtl = useTheme().direction === 'rtl';
  return (
    <Page
      title={t(`steps.${step}.title`)}
      width={width}
      actions={
        <>
          <ClinicPageLink />
          {isOwner ? actions : null}
        </>
      }
    >
      <Stack
        direction="row"
        spacing={2}
        useFlexGap
        sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 2 }}
      >
        <Link component={RouterLink} to="/setup" sx={{ display: 'inline-flex', gap: 0.5 }}>
          {rtl ? <ArrowForwardIcon fontSize="small" /> : <ArrowBackIcon fontSize="small" />}
          {t('backToChecklist')}
        </Link>
        <Typography color="text.secondary">
          {t('stepOf', { number: setupSteps.indexOf(step) + 1, total: setupSteps.length })}
        </Typography>
      </Stack>
      {isOwner ? (
        children
      ) : (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('readOnlyStep')}
        </Alert>
      )}
      <StepFooter step={step} next={next} canMark={isOwner} checklist={checklist.data} />
    </Page>
  );
}

function StepFooter({
  step,
  next,
  canMark,
  checklist,
}: {
  step: SetupStep;
  next: SetupStep | null;
  canMark: boolean;
  checklist: SetupChecklist | undefined;
}) {
  const { t } = useTranslation('setup');
  const queryClient = useQueryClient();
  const notify = useNotify();
  const state = checklist?.steps.find((s) => s.step === step);
  const rtl = useTheme().direction === 'rtl';
  const mark = useMutation({
    mutationFn: (done: boolean) => markSetupStep(step, done),
    onSuccess: (list, done) => {
      queryClient.setQueryData(setupChecklistQueryKey, list);
      notify(t(done ? 'markedDone' : 'unmarked'));
    },
  });
  return (
    <Paper sx={{ p: 2, mt: 3 }}>
      <Stack
        direction="row"
        spacing={2}
        useFlexGap
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
      >
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          sx={{ alignItems: 'center', flexWrap: 'wrap' }}
        >
          {state ? <StepStateChip state={state} /> : null}
          {canMark && state ? (
            state.done ? (
              <Button onClick={() => mark.mutate(false)} loading={mark.isPending}>
                {t('unmark')}
              </Button>
            ) : (
              <Button
                variant="outlined"
                startIcon={<TaskAltIcon />}
                onClick={() => mark.mutate(true)}
                loading={mark.isPending}
              >
                {t('markDone')}
              </Button>
            )
          ) : null}
        </Stack>
        <Button
          variant="contained"
          component={RouterLink}
          to={next ? stepPath(next) : '/setup'}
          endIcon={next ? rtl ? <ArrowBackIcon /> : <ArrowForwardIcon /> : undefined}
        >
          {next ? t('next', { step: t(`steps.${next}.title`) }) : t('finish')}
        </Button>
      </Stack>
      {mark.isError ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {errorText(t, mark.error)}
        </Alert>
      ) : null}
    </Paper>
  );
}
