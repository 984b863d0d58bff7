import EditIcon from '../../lib/icons/edit';
import KeyIcon from '../../lib/icons/key';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { IntegrationPatient, ReassignedPatient } from '@marpe/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { ApiError } from '../../lib/api';
import { errorText } from '../../lib/field-errors';
import { formatPhone } from '../../lib/format';
import { useNotify } from '../../lib/notify';
import { Page } from '../../lib/page';
import { PageLoading } from '../../lib/page-loading';
import { Section } from '../../lib/section';
import { patientKey, patientsKey, usePatient } from './api/patients';
import { AppointmentsSection } from './components/appointments-section';
import { CorrectDialog } from './components/correct-dialog';
import { FormsSection } from './components/forms-section';
import { PaymentsSection } from './components/payments-section';
import { ReassignDialog } from './components/reassign-dialog';
import { WaitlistSection } from './components/waitlist-section';

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
        <AppointmentsSection idNumber={idNumber} />
        <WaitlistSection idNumber={idNumber} />
        <FormsSection idNumber={idNumber} />
        <PaymentsSection idNumber={idNumber} />
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
