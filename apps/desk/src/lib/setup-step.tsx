import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CheckIcon from '@mui/icons-material/Check';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { SetupChecklist, SetupStep } from '@marpe/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { api } from './api';
import { errorText } from './field-errors';
import { useNotify } from './notify';
import { useClinic } from './session';

/** The set-up checklist's page and its data's query key (the `setup` feature's). */
const checklistPath = '/setup';
const checklistQueryKey = ['setup'] as const;

/** `PUT /api/integration/setup/steps/:step`: the owner says a set-up step is done, or not; the
 * server answers the checklist. */
export const markSetupStep = (step: SetupStep, done: boolean) =>
  api<SetupChecklist>(`/api/integration/setup/steps/${encodeURIComponent(step)}`, {
    method: 'PUT',
    body: { done },
  });

/**
 * "See the clinic page as patients see it": the public page, in a new tab (said to screen readers
 * too), so an owner checks each step's effect where patients meet it.
 */
export function PatientPageLink({ label, newTab }: { label: string; newTab: string }) {
  const { clinicId } = useClinic();
  return (
    <Button
      variant="outlined"
      href={`/clinic/${clinicId}`}
      target="_blank"
      rel="noopener"
      endIcon={<OpenInNewIcon />}
    >
      {label}
      <span className="visually-hidden"> ({newTab})</span>
    </Button>
  );
}

/**
 * The end of a set-up step's page: back to the checklist, and "mark this step done", which
 * records it and returns to the checklist. Its words come from the step's feature.
 */
export function SetupStepFooter({
  step,
  texts,
}: {
  step: SetupStep;
  texts: { intro: string; markDone: string; marked: string; back: string };
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useNotify();
  const mark = useMutation({
    mutationFn: () => markSetupStep(step, true),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: checklistQueryKey });
      notify(texts.marked);
      void navigate(checklistPath);
    },
  });
  return (
    <Paper component="section" aria-label={texts.markDone} sx={{ p: 3, mt: 3 }}>
      <Typography sx={{ mb: 2 }}>{texts.intro}</Typography>
      {mark.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorText(t, mark.error)}
        </Alert>
      ) : null}
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button
          variant="contained"
          startIcon={<CheckIcon />}
          loading={mark.isPending}
          onClick={() => mark.mutate()}
        >
          {texts.markDone}
        </Button>
        <Button
          component={RouterLink}
          to={checklistPath}
          startIcon={
            <ArrowBackIcon
              sx={(theme) => ({ transform: theme.direction === 'rtl' ? 'scaleX(-1)' : 'none' })}
            />
          }
        >
          {texts.back}
        </Button>
      </Stack>
    </Paper>
  );
}
