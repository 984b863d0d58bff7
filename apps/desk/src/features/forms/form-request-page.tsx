import ArrowBackIcon from '../../lib/icons/arrow-back';
import ArrowForwardIcon from '../../lib/icons/arrow-forward';
import DownloadIcon from '../../lib/icons/download';
import PrintIcon from '../../lib/icons/print';
import Alert from '@mui/material/Alert';
import GlobalStyles from '@mui/material/GlobalStyles';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { FormRequest } from '@marpe/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { ApiError } from '../../lib/api';
import { ConfirmDialog } from '../../lib/confirm-dialog';
import { errorText } from '../../lib/field-errors';
import { useNotify } from '../../lib/notify';
import { Page } from '../../lib/page';
import { PageLoading } from '../../lib/page-loading';
import { Section } from '../../lib/section';
import {
  cancelFormRequest,
  formRequestsKey,
  isPending,
  useFormRequest,
  useFormSubmission,
} from './api/form-requests';
import { fetchSubmissionPdf } from './api/submission-pdf';
import { AnswersView } from './components/answers-view';
import { ResendDialog } from './components/resend-dialog';
import { StageChip } from './components/stage-chip';
import { useClinicDates } from '../../lib/clinic-dates';

/** "Print" prints the form's details and answers alone, without the desk around them. */
const printOnly = {
  '.print-only': { display: 'none' },
  '@media print': {
    'body *': { visibility: 'hidden' },
    '[data-form-print], [data-form-print] *': { visibility: 'visible' },
    '[data-form-print]': { position: 'absolute', insetInlineStart: 0, top: 0, width: '100%' },
    '.print-only': { display: 'block' },
  },
} as const;

/**
 * `/desk/forms/:id`: one form sent to a patient, its state and times, live while the patient may
 * still act on it; once submitted, the answers as the patient saw them, the signatures, and the
 * PDF to download or print.
 */
export function FormRequestPage() {
  const { t, i18n } = useTranslation('forms');
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const request = useFormRequest(valid ? id : 0);
  const BackIcon = i18n.dir() === 'rtl' ? ArrowForwardIcon : ArrowBackIcon;

  const back = (
    <Link component={RouterLink} to="/forms" sx={{ display: 'inline-flex', gap: 0.5, mb: 2 }}>
      <BackIcon fontSize="small" aria-hidden />
      {t('request.back')}
    </Link>
  );

  if (
    !valid ||
    (request.isError && request.error instanceof ApiError && request.error.status === 404)
  ) {
    return (
      <Page title={t('request.notFound')} width="md">
        {back}
      </Page>
    );
  }
  if (request.isPending) {
    return (
      <Page title={t('title')} width="md">
        {back}
        <PageLoading />
      </Page>
    );
  }
  if (request.isError) {
    return (
      <Page title={t('title')} width="md">
        {back}
        <Alert severity="error">{errorText(t, request.error)}</Alert>
      </Page>
    );
  }
  return <RequestView request={request.data} back={back} />;
}

function RequestView({ request, back }: { request: FormRequest; back: ReactNode }) {
  const { t } = useTranslation('forms');
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { dayAndTime, timeZone } = useClinicDates();
  const submitted = request.stage === 'submitted';
  const submission = useFormSubmission(request.id, submitted);
  const [resending, setResending] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [pdfError, setPdfError] = useState<string | null>(null);
  const form = request.template_name ?? t('list.deletedForm');
  const title = request.template_name
    ? t('request.titleOf', { form: request.template_name })
    : t('request.untitled', { id: request.id });
  const refresh = () => queryClient.invalidateQueries({ queryKey: formRequestsKey });

  async function downloadPdf() {
    setDownloading(true);
    setPdfError(null);
    try {
      const url = URL.createObjectURL(await fetchSubmissionPdf(request.id));
      const anchor = document.createElement('a');
      anchor.href = url;
      anchor.download = `form-${request.id}.pdf`;
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (failure) {
      setPdfError(t('request.pdfFailed', { reason: errorText(t, failure) }));
    } finally {
      setDownloading(false);
    }
  }

  const pending = isPending(request.stage);
  const actions = pending ? (
    <>
      <Button variant="contained" onClick={() => setResending(true)}>
        {t('resend.action')}
      </Button>
      <Button color="error" variant="outlined" onClick={() => setCancelling(true)}>
        {t('cancel.action')}
      </Button>
    </>
  ) : submitted ? (
    <>
      <Button
        variant="contained"
        startIcon={<DownloadIcon />}
        onClick={() => void downloadPdf()}
        loading={downloading}
      >
        {t('request.download')}
      </Button>
      <Button variant="outlined" startIcon={<PrintIcon />} onClick={() => window.print()}>
        {t('request.print')}
      </Button>
    </>
  ) : null;

  const when = (iso: string | null) => (iso ? dayAndTime(iso) : t('request.never'));
  const details: [string, ReactNode][] = [
    [
      t('request.patient'),
      request.patient_id_number ? (
        <>
          {request.patient_name || t('list.noPatient')} · <bdi>{request.patient_id_number}</bdi>
        </>
      ) : (
        t('list.noPatient')
      ),
    ],
    [t('request.stage'), <StageChip key="stage" stage={request.stage} />],
    [t('request.created'), when(request.created_at)],
    [t('request.opened'), when(request.opened_at)],
    ...(request.draft_saved_at
      ? [[t('request.draftSaved'), when(request.draft_saved_at)] as [string, ReactNode]]
      : []),
    [t('request.submitted'), when(request.submitted_at)],
    ...(pending || request.stage === 'expired'
      ? [
          [
            request.stage === 'expired' ? t('request.expired') : t('request.expires'),
            when(request.expires_at),
          ] as [string, ReactNode],
        ]
      : []),
  ];

  return (
    <Page title={title} actions={actions} width="md">
      {back}
      <GlobalStyles styles={printOnly} />
      <Stack spacing={3} data-form-print="">
        <Typography className="print-only" aria-hidden variant="h2" component="p">
          {title}
        </Typography>
        <Section title={t('request.details')} intro={pending ? t('request.live') : undefined}>
          <Box
            component="dl"
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
              columnGap: 3,
              rowGap: 1,
              m: 0,
            }}
          >
            {details.map(([term, value]) => (
              <Box key={term} sx={{ display: 'contents' }}>
                <Typography component="dt" color="text.secondary">
                  {term}
                </Typography>
                <Typography component="dd" sx={{ m: 0 }}>
                  {value}
                </Typography>
              </Box>
            ))}
          </Box>
        </Section>
        {pdfError ? <Alert severity="error">{pdfError}</Alert> : null}
        <Section title={t('request.answers')}>
          {submitted ? (
            submission.isPending ? (
              <PageLoading />
            ) : submission.isError ? (
              <Alert severity="error">{errorText(t, submission.error)}</Alert>
            ) : (
              <AnswersView
                schema={submission.data.schema}
                values={submission.data.values}
                submittedAt={submission.data.submitted_at}
                timeZone={timeZone}
              />
            )
          ) : (
            <Typography>{pending ? t('request.waiting') : t('request.ended')}</Typography>
          )}
        </Section>
      </Stack>

      <ResendDialog
        request={resending ? request : null}
        onClose={() => setResending(false)}
        onResent={() => void refresh()}
      />
      <ConfirmDialog
        open={cancelling}
        title={t('cancel.title')}
        body={t('cancel.body', { form })}
        confirmLabel={t('cancel.confirm')}
        destructive
        onClose={() => setCancelling(false)}
        onConfirm={async () => {
          await cancelFormRequest(request.id);
          notify(t('cancel.done', { form }));
          await refresh();
        }}
      />
    </Page>
  );
}
