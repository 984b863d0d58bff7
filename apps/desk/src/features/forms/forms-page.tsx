import SendIcon from '../../lib/icons/send';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { formRequestStages, type FormRequest } from '@marpe/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
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
  isStage,
  useFormRequests,
  type FormRequestFilters,
} from './api/form-requests';
import { ResendDialog } from './components/resend-dialog';
import { SendFormDialog } from './components/send-form-dialog';
import { StageChip } from './components/stage-chip';
import { useClinicDates } from '../../lib/clinic-dates';

const day = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `/desk/forms`: the forms sent to patients, newest first, their state live; send one (also as
 * `/forms?send=<idNumber>`, the patient chosen), open, resend or cancel one.
 */
export function FormsPage() {
  const { t } = useTranslation('forms');
  const id = useId();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const { dayAndTime } = useClinicDates();
  const stageParam = params.get('stage');
  const fromParam = params.get('from') ?? '';
  const toParam = params.get('to') ?? '';
  const filters: FormRequestFilters = {
    stage: isStage(stageParam) ? stageParam : null,
    from: day.test(fromParam) ? fromParam : null,
    to: day.test(toParam) ? toParam : null,
  };
  const filtered = filters.stage !== null || filters.from !== null || filters.to !== null;
  const requests = useFormRequests(filters);
  const sendFor = params.get('send');
  const [sending, setSending] = useState(sendFor !== null);
  const [resending, setResending] = useState<FormRequest | null>(null);
  const [cancelling, setCancelling] = useState<FormRequest | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: formRequestsKey });
  const setFilter = (name: 'stage' | 'from' | 'to', value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  const closeSend = () => {
    setSending(false);
    if (params.has('send')) {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('send');
          return next;
        },
        { replace: true },
      );
    }
  };

  const rows = requests.data?.pages.flat() ?? [];
  const nameOf = (request: FormRequest) =>
    request.patient_name || request.patient_id_number || t('list.noPatient');
  const formOf = (request: FormRequest) => request.template_name ?? t('list.deletedForm');

  const actions = (
    <Button variant="contained" startIcon={<SendIcon />} onClick={() => setSending(true)}>
      {t('send.open')}
    </Button>
  );

  return (
    <Page title={t('title')} actions={actions}>
      <Section title={t('list.title')} intro={t('list.intro')} id={`${id}-list`}>
        <Stack
          role="search"
          aria-label={t('filters.label')}
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          useFlexGap
          sx={{ mb: 2, flexWrap: 'wrap', alignItems: { sm: 'center' } }}
        >
          <TextField
            select
            size="small"
            fullWidth={false}
            label={t('filters.stage')}
            value={filters.stage ?? ''}
            onChange={(e) => setFilter('stage', e.target.value)}
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            sx={{ minWidth: 180 }}
          >
            <option value="">{t('filters.all')}</option>
            {formRequestStages.map((stage) => (
              <option key={stage} value={stage}>
                {t(`common:formStatus.${stage}`)}
              </option>
            ))}
          </TextField>
          <TextField
            size="small"
            fullWidth={false}
            type="date"
            label={t('filters.from')}
            value={filters.from ?? ''}
            onChange={(e) => setFilter('from', e.target.value)}
            slotProps={{
              inputLabel: { shrink: true },
              htmlInput: { max: filters.to ?? undefined },
            }}
          />
          <TextField
            size="small"
            fullWidth={false}
            type="date"
            label={t('filters.to')}
            value={filters.to ?? ''}
            onChange={(e) => setFilter('to', e.target.value)}
            slotProps={{
              inputLabel: { shrink: true },
              htmlInput: { min: filters.from ?? undefined },
            }}
          />
          {filtered ? (
            <Button onClick={() => setParams(new URLSearchParams(), { replace: true })}>
              {t('filters.clear')}
            </Button>
          ) : null}
        </Stack>

        {requests.isError ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {errorText(t, requests.error)}
          </Alert>
        ) : null}
        {requests.isPending ? (
          <PageLoading />
        ) : rows.length === 0 ? (
          <Typography>{filtered ? t('list.noneFiltered') : t('list.none')}</Typography>
        ) : (
          <TableContainer>
            <Table size="small" aria-labelledby={`${id}-list`}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('list.patient')}</TableCell>
                  <TableCell>{t('list.form')}</TableCell>
                  <TableCell>{t('list.stage')}</TableCell>
                  <TableCell>{t('list.sent')}</TableCell>
                  <TableCell>{t('list.submitted')}</TableCell>
                  <TableCell>
                    <span className="visually-hidden">{t('list.actions')}</span>
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((request) => {
                  const name = nameOf(request);
                  const form = formOf(request);
                  return (
                    <TableRow key={request.id}>
                      <TableCell component="th" scope="row">
                        {name}
                        {request.patient_id_number && request.patient_name ? (
                          <Typography variant="body2" color="text.secondary">
                            <bdi>{request.patient_id_number}</bdi>
                          </Typography>
                        ) : null}
                      </TableCell>
                      <TableCell>{form}</TableCell>
                      <TableCell>
                        <StageChip stage={request.stage} />
                      </TableCell>
                      <TableCell>{dayAndTime(request.created_at)}</TableCell>
                      <TableCell>
                        {request.submitted_at ? dayAndTime(request.submitted_at) : '—'}
                      </TableCell>
                      <TableCell sx={{ textAlign: 'end', whiteSpace: 'nowrap' }}>
                        <Button component={RouterLink} to={`/forms/${request.id}`}>
                          {t('list.open')}
                          <span className="visually-hidden">
                            {' '}
                            {t('list.rowObject', { form, name })}
                          </span>
                        </Button>
                        {isPending(request.stage) ? (
                          <>
                            <Button onClick={() => setResending(request)}>
                              {t('resend.action')}
                              <span className="visually-hidden">
                                {' '}
                                {t('list.rowObject', { form, name })}
                              </span>
                            </Button>
                            <Button color="error" onClick={() => setCancelling(request)}>
                              {t('cancel.action')}
                              <span className="visually-hidden">
                                {' '}
                                {t('list.rowObject', { form, name })}
                              </span>
                            </Button>
                          </>
                        ) : null}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        {requests.hasNextPage ? (
          <Stack direction="row" sx={{ justifyContent: 'center', mt: 2 }}>
            <Button
              variant="outlined"
              onClick={() => void requests.fetchNextPage()}
              loading={requests.isFetchingNextPage}
            >
              {t('list.more')}
            </Button>
          </Stack>
        ) : null}
      </Section>

      <SendFormDialog
        open={sending}
        initialIdNumber={sendFor}
        onClose={closeSend}
        onSent={() => void refresh()}
      />
      <ResendDialog
        request={resending}
        onClose={() => setResending(null)}
        onResent={() => void refresh()}
      />
      <ConfirmDialog
        open={cancelling !== null}
        title={t('cancel.title')}
        body={t('cancel.body', { form: cancelling ? formOf(cancelling) : '' })}
        confirmLabel={t('cancel.confirm')}
        destructive
        onClose={() => setCancelling(null)}
        onConfirm={async () => {
          if (!cancelling) return;
          await cancelFormRequest(cancelling.id);
          notify(t('cancel.done', { form: formOf(cancelling) }));
          await refresh();
        }}
      />
    </Page>
  );
}
