import { clinicPagePath } from '@marpe/shared/rules';
import CheckCircleOutlineIcon from '../../lib/icons/check-circle-outlined';
import DownloadIcon from '../../lib/icons/download';
import EventIcon from '../../lib/icons/event';
import EventNoteOutlinedIcon from '../../lib/icons/event-note-outlined';
import SmsOutlinedIcon from '../../lib/icons/sms-outlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink, useNavigate, useParams } from 'react-router';
import { parseClinicId } from '../../lib/clinic/get-clinic';
import { useSelectedClinic } from '../../lib/clinic/use-selected-clinic';
import { LoadingView } from '../../lib/loading-view';
import { useSessionStore } from '../../lib/patient-session/session-store';
import { googleCalendarUrl, icsFile, type CalendarEvent } from './calendar';
import { SummaryList } from './components/summary-list';
import { useBookingStore } from './stores/booking-store';

type SmsResult = 'sent' | 'failed';

/**
 * The confirmation page, route booking/:clinicId/confirmation
 * (docs/product/booking.md#confirmation-page).
 */
export function ConfirmationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { clinicId: clinicIdParam } = useParams();
  const clinicId = parseClinicId(clinicIdParam);
  const { data } = useSelectedClinic(clinicId);

  const summary = useBookingStore((state) => state.summary);
  const isSmsSent = useBookingStore((state) => state.isSmsSent);
  const sendSms = useBookingStore((state) => state.sendSms);
  const reset = useBookingStore((state) => state.reset);
  const logout = useSessionStore((state) => state.logout);
  const [sending, setSending] = useState(false);
  const [smsResult, setSmsResult] = useState<SmsResult | null>(null);
  const [leaving, setLeaving] = useState(false);

  if (leaving) return null;
  // Nothing booked in this page load (a reload, say): the patient's appointments list it.
  if (!summary) {
    return <Navigate to={clinicId === null ? '/' : `/appointments/${clinicId}`} replace />;
  }
  if (!data) return <LoadingView />;

  const { clinic } = data;
  const { appointment, caregiver, appointmentType } = summary;
  const event: CalendarEvent = {
    uid: `appointment-${appointment.id}@marpe`,
    title: t('booking.confirmation.calendarTitle', {
      type: appointmentType.name,
      caregiver: caregiver.name,
      clinic: clinic.name,
    }),
    start: appointment.start_date,
    end: appointment.end_date,
    location: `${clinic.address.street} ${clinic.address.home_number}, ${clinic.address.city}`,
  };

  async function onSendSms() {
    setSending(true);
    const ok = await sendSms();
    setSending(false);
    setSmsResult(ok ? 'sent' : 'failed');
  }

  function downloadIcs() {
    const url = URL.createObjectURL(new Blob([icsFile(event)], { type: 'text/calendar' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `appointment-${appointment.id}.ics`;
    document.body.append(link);
    link.click();
    link.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  function backToClinic() {
    setLeaving(true);
    void logout();
    reset();
    // The clinic page with the clinic's id and name.
    void navigate(clinicPagePath(clinic));
  }

  return (
    <Box
      sx={{
        maxWidth: 520,
        mx: 'auto',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'stretch',
        gap: 2.5,
        textAlign: 'center',
      }}
    >
      <CheckCircleOutlineIcon
        aria-hidden="true"
        color="success"
        sx={{ fontSize: 96, alignSelf: 'center' }}
      />
      <Typography component="h1" variant="h4">
        {summary.rescheduled
          ? t('booking.confirmation.rescheduledTitle')
          : t('booking.confirmation.title')}
      </Typography>
      <Typography>{t('booking.confirmation.message')}</Typography>
      <Box sx={{ textAlign: 'start' }}>
        <SummaryList
          caregiver={caregiver}
          appointmentType={appointmentType}
          slot={{ start: appointment.start_date, end: appointment.end_date }}
          timeZone={clinic.timezone}
        />
      </Box>
      {appointment.sms_sent ? (
        <Alert severity="info" role="note">
          {t('booking.confirmation.smsAutoSent')}
        </Alert>
      ) : (
        <Button
          variant="outlined"
          startIcon={<SmsOutlinedIcon />}
          disabled={isSmsSent || sending}
          onClick={() => void onSendSms()}
        >
          {t('booking.confirmation.sendSms')}
        </Button>
      )}
      <Button
        variant="outlined"
        startIcon={<EventIcon />}
        href={googleCalendarUrl(event)}
        target="_blank"
        rel="noopener noreferrer"
      >
        {t('booking.confirmation.addToCalendar')}
        <Box component="span" sx={visuallyHidden}>
          {` ${t('booking.confirmation.opensInNewTab')}`}
        </Box>
      </Button>
      {/* Apple Calendar, Outlook and the rest: the same event as a file. */}
      <Button variant="outlined" startIcon={<DownloadIcon />} onClick={downloadIcs}>
        {t('booking.confirmation.downloadIcs')}
      </Button>
      <Button
        component={RouterLink}
        to={`/appointments/${clinic.id}`}
        variant="outlined"
        startIcon={<EventNoteOutlinedIcon />}
      >
        {t('booking.confirmation.myAppointments')}
      </Button>
      <Button variant="contained" size="large" onClick={backToClinic}>
        {t('booking.confirmation.backToClinic')}
      </Button>
      <Snackbar
        open={smsResult !== null}
        autoHideDuration={3000}
        onClose={(_event, reason) => {
          if (reason !== 'clickaway') setSmsResult(null);
        }}
      >
        <Alert
          severity={smsResult === 'failed' ? 'error' : 'success'}
          variant="filled"
          sx={{ width: '100%' }}
        >
          {smsResult === 'failed'
            ? t('booking.confirmation.smsFailed')
            : t('booking.confirmation.smsSent')}
        </Alert>
      </Snackbar>
    </Box>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
