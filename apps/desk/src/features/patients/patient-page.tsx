import EditIcon from '../../lib/icons/edit';
import KeyIcon from '../../lib/icons/key';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { IntegrationPatient, ReassignedPatient } from '@marpe/shared';
import type { UseQueryResult } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { ApiError } from '../../lib/api';
import { errorText } from '../../lib/field-errors';
import { formatPhone, localeOf } from '../../lib/format';
import { useNotify } from '../../lib/notify';
import { useClinicZoneQuery } from '../../lib/clinic-dates';
import { Page } from '../../lib/page';
import { PageLoading } from '../../lib/page-loading';
import { Section } from '../../lib/section';
import {
  patientKey,
  patientsKey,
  SECTION_PAGE_SIZE,
  usePatient,
  usePatientAppointments,
  usePatientForms,
  usePatientPayments,
  usePatientWaitlist,
} from './api/patients';
import { CorrectDialog } from './components/correct-dialog';
import { ReassignDialog } from './components/reassign-dialog';
import { clinicDate, formatDate, formatDateTime } from './patient-dates';

/**
 * `/desk/patients/:idNumber`: one patient, what the clinic holds for them (appointments, waitlist,
 * forms, payments, all live while open), and the front desk's actions for them.
 */
export function PatientPage() {
  const { t } = useTranslation('patients');
  const { idNumber = '' } = useParams();
  const patient = usePatient(idNumber);
  if (patient.isPending) {
    return (
      <Page title={t('title')}>
        <PageLoading />
      </Page>
    );
  }
  if (patient.isError) {
    // A malformed ID number in the address is no patient either.
    const notFound = patient.error instanceof ApiError && [400, 404].includes(patient.error.status);
    return (
      <Page title={t('title')}>
        <Alert severity={notFound ? 'warning' : 'error'} sx={{ mb: 2 }}>
          {notFound ? t('patient.notFound', { idNumber }) : errorText(t, patient.error)}
        </Alert>
        <Link component={RouterLink} to="/patients">
          {t('patient.back')}
        </Link>
      </Page>
    );
  }
  return <PatientDetails patient={patient.data} />;
}

function PatientDetails({ patient }: { patient: IntegrationPatient }) {
  const { t } = useTranslation('patients');
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [correcting, setCorrecting] = useState(false);
  const [opening, setOpening] = useState(0);
  const [reassigning, setReassigning] = useState(false);
  const [reassigned, setReassigned] = useState<ReassignedPatient | null>(null);
  const name = `${patient.first_name} ${patient.last_name}`;
  const idNumber = patient.id_number;

  return (
    <Page
      title={name}
      actions={
        <>
          <Button component={RouterLink} to={`/diary?patient=${idNumber}`} variant="contained">
            {t('patient.book')}
          </Button>
          <Button component={RouterLink} to={`/forms?send=${idNumber}`} variant="outlined">
            {t('patient.sendForm')}
          </Button>
          <Button component={RouterLink} to={`/payments?send=${idNumber}`} variant="outlined">
            {t('patient.requestPayment')}
          </Button>
        </>
      }
    >
      <Stack spacing={3}>
        <Section title={t('patient.details')}>
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={3}
            useFlexGap
            sx={{ alignItems: { sm: 'center' }, flexWrap: 'wrap' }}
          >
            <Box component="dl" sx={{ display: 'flex', gap: 3, m: 0, flexWrap: 'wrap' }}>
              <div>
                <Typography component="dt" color="text.secondary">
                  {t('patient.idNumber')}
                </Typography>
                <Typography component="dd" sx={{ m: 0 }}>
                  <bdi>{patient.id_number}</bdi>
                </Typography>
              </div>
              <div>
                <Typography component="dt" color="text.secondary">
                  {t('patient.phone')}
                </Typography>
                <Typography component="dd" sx={{ m: 0 }}>
                  <bdi>{formatPhone(patient.phone)}</bdi>
                </Typography>
              </div>
            </Box>
            <Button
              startIcon={<EditIcon />}
              onClick={() => {
                setOpening((n) => n + 1);
                setCorrecting(true);
              }}
            >
              {t('patient.correct')}
            </Button>
            <Button
              startIcon={<KeyIcon />}
              onClick={() => {
                setOpening((n) => n + 1);
                setReassigning(true);
              }}
            >
              {t('patient.reassign')}
            </Button>
          </Stack>
          {reassigned ? (
            <Alert
              severity={reassigned.upcoming_appointment_ids.length > 0 ? 'warning' : 'success'}
              onClose={() => setReassigned(null)}
              slotProps={{ closeButton: { title: t('reassign.dismiss') } }}
              sx={{ mt: 2 }}
            >
              {reassigned.sessions_ended === 0
                ? t('reassign.doneNone', { name })
                : t('reassign.done', { name, count: reassigned.sessions_ended })}
              {reassigned.upcoming_appointment_ids.length > 0
                ? ` ${t('reassign.review', { name, count: reassigned.upcoming_appointment_ids.length })}`
                : null}
            </Alert>
          ) : null}
        </Section>
        <Appointments idNumber={idNumber} />
        <Waitlist idNumber={idNumber} />
        <Forms idNumber={idNumber} />
        <Payments idNumber={idNumber} />
      </Stack>
      <CorrectDialog
        key={opening}
        patient={patient}
        open={correcting}
        onClose={() => setCorrecting(false)}
        onCorrected={(corrected) => {
          setCorrecting(false);
          if (corrected === null) {
            notify(t('correct.nothing'), 'info');
            return;
          }
          queryClient.setQueryData(patientKey(idNumber), corrected);
          void queryClient.invalidateQueries({ queryKey: patientsKey });
          notify(t('correct.saved', { name: `${corrected.first_name} ${corrected.last_name}` }));
        }}
      />
      <ReassignDialog
        key={`reassign-${opening}`}
        patient={patient}
        open={reassigning}
        onClose={() => setReassigning(false)}
        onReassigned={(result) => {
          setReassigning(false);
          setReassigned(result);
          queryClient.setQueryData(patientKey(idNumber), result.patient);
          void queryClient.invalidateQueries({ queryKey: patientsKey });
          const owner = `${result.patient.first_name} ${result.patient.last_name}`;
          notify(t('reassign.saved', { name: owner }));
        }}
      />
    </Page>
  );
}

/** Where a section's list stands: its rows once in, whether more follow, or what failed. */
interface ListState<T> {
  rows: T[] | undefined;
  more: boolean;
  pending: boolean;
  error: unknown;
}

const stateOf = <T,>(
  query: UseQueryResult<{ rows: T[]; more: boolean }> | UseQueryResult<T[]>,
): ListState<T> => {
  const data = query.data;
  return {
    rows: data === undefined ? undefined : Array.isArray(data) ? data : data.rows,
    more: data !== undefined && !Array.isArray(data) && data.more,
    pending: query.isPending,
    error: query.error,
  };
};

/** A section's list as it loads: its table, its empty text, or what failed; "more" when more. */
function ListSection<T>({
  title,
  state,
  empty,
  head,
  row,
  onMore,
}: {
  title: string;
  state: ListState<T>;
  empty: string;
  head: string[];
  row: (item: T) => ReactNode;
  onMore?: () => void;
}) {
  const { t } = useTranslation('patients');
  const id = useId();
  const rows = state.rows ?? [];
  const failed = state.error !== null && state.error !== undefined;
  return (
    <Section title={title} id={id}>
      {failed ? (
        <Alert severity="error" sx={{ mb: rows.length > 0 ? 2 : 0 }}>
          {t('patient.loadFailed')} {errorText(t, state.error)}
        </Alert>
      ) : null}
      {state.pending && !failed ? (
        <PageLoading />
      ) : rows.length === 0 ? (
        failed ? null : (
          <Typography>{empty}</Typography>
        )
      ) : (
        <TableContainer>
          <Table size="small" aria-labelledby={id}>
            <TableHead>
              <TableRow>
                {head.map((cell, i) => (
                  <TableCell key={i}>
                    {cell === '' ? (
                      <span className="visually-hidden">{t('patient.actions')}</span>
                    ) : (
                      cell
                    )}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>{rows.map(row)}</TableBody>
          </Table>
        </TableContainer>
      )}
      {state.more && onMore ? (
        <Button onClick={onMore} sx={{ mt: 1 }}>
          {t('patient.more')}
        </Button>
      ) : null}
    </Section>
  );
}

function Appointments({ idNumber }: { idNumber: string }) {
  const { t, i18n } = useTranslation('patients');
  const zone = useClinicZoneQuery();
  const [now] = useState(() => Date.now());
  const today = zone.data ? clinicDate(now, zone.data) : null;
  const [upcomingLimit, setUpcomingLimit] = useState(SECTION_PAGE_SIZE);
  const [pastLimit, setPastLimit] = useState(SECTION_PAGE_SIZE);
  const upcoming = usePatientAppointments(idNumber, 'upcoming', today, upcomingLimit);
  const past = usePatientAppointments(idNumber, 'past', today, pastLimit);
  const language = i18n.language;
  const head = [
    t('appointments.when'),
    t('appointments.caregiver'),
    t('appointments.type'),
    t('appointments.status'),
    '',
  ];
  const row = (a: NonNullable<typeof upcoming.data>['rows'][number]) => {
    const when = formatDateTime(a.start_date, zone.data ?? 'Asia/Jerusalem', language);
    const date = clinicDate(Date.parse(a.start_date), zone.data ?? 'Asia/Jerusalem');
    return (
      <TableRow key={a.id}>
        <TableCell component="th" scope="row">
          {when}
        </TableCell>
        <TableCell>{a.caregiver.name}</TableCell>
        <TableCell>{a.appointment_type.name}</TableCell>
        <TableCell>
          <Chip
            size="small"
            variant="outlined"
            color={a.status === 'booked' ? 'success' : 'default'}
            label={t(`appointments.${a.status}`)}
          />
        </TableCell>
        <TableCell sx={{ textAlign: 'end' }}>
          <Link
            component={RouterLink}
            to={`/diary?date=${date}&appointment=${a.id}`}
            aria-label={t('appointments.openLabel', { when })}
          >
            {t('appointments.open')}
          </Link>
        </TableCell>
      </TableRow>
    );
  };
  return (
    <>
      <ListSection
        title={t('appointments.upcoming')}
        state={zone.isError ? { ...stateOf(upcoming), error: zone.error } : stateOf(upcoming)}
        empty={t('appointments.noneUpcoming')}
        head={head}
        row={row}
        onMore={() => setUpcomingLimit((n) => n + SECTION_PAGE_SIZE * 2)}
      />
      <ListSection
        title={t('appointments.past')}
        state={zone.isError ? { ...stateOf(past), error: zone.error } : stateOf(past)}
        empty={t('appointments.nonePast')}
        head={head}
        row={row}
        onMore={() => setPastLimit((n) => n + SECTION_PAGE_SIZE * 2)}
      />
    </>
  );
}

function Waitlist({ idNumber }: { idNumber: string }) {
  const { t, i18n } = useTranslation('patients');
  const entries = usePatientWaitlist(idNumber);
  const language = i18n.language;
  return (
    <ListSection
      title={t('waitlist.title')}
      state={stateOf(entries)}
      empty={t('waitlist.none')}
      head={[
        t('waitlist.caregiver'),
        t('waitlist.type'),
        t('waitlist.dates'),
        t('waitlist.partOfDay'),
        t('waitlist.joined'),
      ]}
      row={(entry) => (
        <TableRow key={entry.id}>
          <TableCell component="th" scope="row">
            {entry.caregiver.name}
          </TableCell>
          <TableCell>{entry.appointment_type.name}</TableCell>
          <TableCell>
            {formatDate(entry.from_date, language)}–{formatDate(entry.to_date, language)}
          </TableCell>
          <TableCell>{t(`waitlist.parts.${entry.part_of_day}`)}</TableCell>
          <TableCell>{formatDate(entry.joined_at, language)}</TableCell>
        </TableRow>
      )}
    />
  );
}

function Forms({ idNumber }: { idNumber: string }) {
  const { t, i18n } = useTranslation('patients');
  const [limit, setLimit] = useState(SECTION_PAGE_SIZE);
  const forms = usePatientForms(idNumber, limit);
  const language = i18n.language;
  return (
    <ListSection
      title={t('forms.title')}
      state={stateOf(forms)}
      empty={t('forms.none')}
      head={[t('forms.form'), t('forms.stage'), t('forms.sent'), t('forms.submitted'), '']}
      row={(form) => {
        const name = form.template_name ?? t('forms.untitled');
        const sent = formatDate(form.created_at, language);
        return (
          <TableRow key={form.id}>
            <TableCell component="th" scope="row">
              {name}
            </TableCell>
            <TableCell>{t(`common:formStatus.${form.stage}`)}</TableCell>
            <TableCell>{sent}</TableCell>
            <TableCell>
              {form.submitted_at ? formatDate(form.submitted_at, language) : '—'}
            </TableCell>
            <TableCell sx={{ textAlign: 'end' }}>
              <Link
                component={RouterLink}
                to={`/forms/${form.id}`}
                aria-label={t('forms.openLabel', { name, date: sent })}
              >
                {t('forms.open')}
              </Link>
            </TableCell>
          </TableRow>
        );
      }}
      onMore={() => setLimit((n) => n + SECTION_PAGE_SIZE * 2)}
    />
  );
}

function Payments({ idNumber }: { idNumber: string }) {
  const { t, i18n } = useTranslation('patients');
  const [limit, setLimit] = useState(SECTION_PAGE_SIZE);
  const payments = usePatientPayments(idNumber, limit);
  const language = i18n.language;
  const money = new Intl.NumberFormat(localeOf(language), { style: 'currency', currency: 'ILS' });
  return (
    <ListSection
      title={t('payments.title')}
      state={stateOf(payments)}
      empty={t('payments.none')}
      head={[
        t('payments.amount'),
        t('payments.purpose'),
        t('payments.stage'),
        t('payments.created'),
        '',
      ]}
      row={(payment) => {
        const created = formatDate(payment.created_at, language);
        return (
          <TableRow key={payment.id}>
            <TableCell component="th" scope="row">
              {money.format(payment.amount)}
            </TableCell>
            <TableCell>{payment.purpose || payment.description || '—'}</TableCell>
            <TableCell>
              {t(`common:paymentStatus.${payment.stage}`)}
              {payment.stage === 'paid' && payment.card_last4 ? (
                <Typography component="span" color="text.secondary">
                  {' '}
                  (<bdi>{payment.card_last4}</bdi>)
                </Typography>
              ) : null}
            </TableCell>
            <TableCell>{created}</TableCell>
            <TableCell sx={{ textAlign: 'end' }}>
              <Link
                component={RouterLink}
                to="/payments"
                aria-label={t('payments.openLabel', { date: created })}
              >
                {t('payments.open')}
              </Link>
            </TableCell>
          </TableRow>
        );
      }}
      onMore={() => setLimit((n) => n + SECTION_PAGE_SIZE * 2)}
    />
  );
}
