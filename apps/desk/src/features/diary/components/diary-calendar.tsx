import 'react-big-calendar/lib/css/react-big-calendar.css';
import 'react-big-calendar/lib/addons/dragAndDrop/styles.css';
import Box from '@mui/material/Box';
import { alpha, useTheme } from '@mui/material/styles';
import type { IntegrationCaregiver } from '@marpe/shared';
import { DateTime, Settings } from 'luxon';
import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import {
  Calendar,
  luxonLocalizer,
  type EventProps,
  type Formats,
  type SlotInfo,
} from 'react-big-calendar';
import dragAndDrop, { type EventInteractionArgs } from 'react-big-calendar/lib/addons/dragAndDrop';
import { useTranslation } from 'react-i18next';
import { clinicZone, type DiaryView } from '../clinic-time';
import { patientName, type DiaryEvent } from '../diary-events';
import { isWithin, type Interval } from '../working-hours';

// The addon is CommonJS only (`lib/`): the build hands its `exports` object over as the default
// import, the function under its own `default`.
const withDragAndDrop: typeof dragAndDrop =
  typeof dragAndDrop === 'function'
    ? dragAndDrop
    : (dragAndDrop as unknown as { default: typeof dragAndDrop }).default;

const DragAndDropCalendar = withDragAndDrop<DiaryEvent, IntegrationCaregiver>(Calendar);

/** Light fills with a darker edge, one per caregiver in page order; the text says who anyway. */
const caregiverColours = [
  { fill: '#E0F7FA', edge: '#00838F' },
  { fill: '#FFF3E0', edge: '#B44D00' },
  { fill: '#E8F5E9', edge: '#2E7D32' },
  { fill: '#F3E5F5', edge: '#7B1FA2' },
  { fill: '#E3F2FD', edge: '#1565C0' },
  { fill: '#FCE4EC', edge: '#AD1457' },
  { fill: '#F1F8E9', edge: '#558B2F' },
  { fill: '#EDE7F6', edge: '#4527A0' },
];

const cultures = { he: 'he', en: 'en-GB' } as const;

/**
 * RBC's luxon localizer makes every DateTime in luxon's default zone: set to the clinic's, the
 * grid's days, hours and "today" follow the clinic's clock, not the browser's. The desk shows
 * one clinic at a time, and nothing else in it uses luxon.
 */
function localizerIn(zone: string) {
  Settings.defaultZone = clinicZone(zone);
  return luxonLocalizer(DateTime, { firstDayOfWeek: 7 });
}

/** The words of an event, its accessible name with the time RBC puts before it. */
function DiaryEventContent({ event }: EventProps<DiaryEvent>) {
  const { t } = useTranslation('diary');
  if (event.kind === 'busy') {
    return (
      <span className="diary-busy-text">
        {t('calendar.busy')}
        {event.busy.label ? ` · ${event.busy.label}` : ''}
        <span className="diary-sr">
          , {t(`busy.source_${event.busy.source}`)}, {event.caregiverName}
        </span>
      </span>
    );
  }
  const { appointment } = event;
  return (
    <>
      <strong className="diary-event-patient">{patientName(appointment)}</strong>
      {/* The comma only for the name; the space after it is visible (a space inside the
          zero-size span would swallow it). */}
      <span className="diary-sr">,</span>{' '}
      <span className="diary-event-type">{appointment.appointment_type.name}</span>
      <span className="diary-sr">, {appointment.caregiver.name}</span>
    </>
  );
}

/** RBC's headers carry table roles outside a table; plain text is all they need to say. */
const PlainLabel = ({ label }: { label?: React.ReactNode }) => <span>{label}</span>;

export interface DiaryCalendarProps {
  zone: string;
  view: DiaryView;
  date: string;
  caregivers: IntegrationCaregiver[];
  events: DiaryEvent[];
  background: DiaryEvent[];
  /** Each caregiver's working time on screen; the rest is shaded closed. */
  open: ReadonlyMap<number, Interval[]>;
  hours: { from: number; to: number };
  onOpen: (event: DiaryEvent) => void;
  onSlot: (slot: { start: number; caregiverId: number | null }) => void;
  onDrop: (move: { event: DiaryEvent; start: number; caregiverId: number }) => void;
}

/**
 * The diary's grid: react-big-calendar's day and week views with the caregivers side by side
 * (resources), in the clinic's time zone (its luxon localizer on luxon's default zone), right to
 * left in Hebrew, appointments draggable to another time or caregiver.
 */
export const DiaryCalendar = memo(function DiaryCalendar(props: DiaryCalendarProps) {
  const { zone, view, date, caregivers, events, background, open, hours } = props;
  const { onOpen, onSlot, onDrop } = props;
  const { t, i18n } = useTranslation('diary');
  const theme = useTheme();
  const rtl = theme.direction === 'rtl';
  const culture = i18n.language === 'en' ? cultures.en : cultures.he;
  const container = useRef<HTMLDivElement>(null);

  const localizer = useMemo(() => localizerIn(zone), [zone]);

  const formats = useMemo<Formats>(
    () => ({
      timeGutterFormat: 'HH:mm',
      dayFormat: 'EEE d/M',
      eventTimeRangeFormat: ({ start, end }, c, l) =>
        `${l?.format(start, 'HH:mm', c) ?? ''}–${l?.format(end, 'HH:mm', c) ?? ''}`,
      eventTimeRangeStartFormat: ({ start }, c, l) => `${l?.format(start, 'HH:mm', c) ?? ''}–`,
      eventTimeRangeEndFormat: ({ end }, c, l) => `–${l?.format(end, 'HH:mm', c) ?? ''}`,
      selectRangeFormat: ({ start, end }, c, l) =>
        `${l?.format(start, 'HH:mm', c) ?? ''}–${l?.format(end, 'HH:mm', c) ?? ''}`,
    }),
    [],
  );

  const day = useMemo(() => DateTime.fromISO(date, { zone: clinicZone(zone) }), [date, zone]);
  const min = useMemo(() => day.set({ hour: hours.from }).toJSDate(), [day, hours.from]);
  const max = useMemo(
    () => (hours.to >= 24 ? day.endOf('day') : day.set({ hour: hours.to })).toJSDate(),
    [day, hours.to],
  );

  const colourOf = useMemo(() => {
    const index = new Map(caregivers.map((c, i) => [c.id, i]));
    return (caregiverId: number) =>
      caregiverColours[(index.get(caregiverId) ?? 0) % caregiverColours.length] ??
      caregiverColours[0];
  }, [caregivers]);

  const eventProps = useCallback(
    (event: DiaryEvent) => {
      if (event.kind === 'busy') return { className: 'diary-busy' };
      const colour = colourOf(event.resourceId);
      return {
        className: 'diary-appointment',
        style: { backgroundColor: colour?.fill, borderInlineStartColor: colour?.edge },
      };
    },
    [colourOf],
  );

  const slotProps = useCallback(
    (slot: Date, resourceId?: number | string) => {
      const at = slot.getTime();
      const intervals =
        resourceId === undefined ? [...open.values()].flat() : (open.get(Number(resourceId)) ?? []);
      return isWithin(intervals, at) ? {} : { className: 'diary-closed' };
    },
    [open],
  );

  // RBC's scrolling hours hold the events (each a button); with none on screen the region must
  // still be reachable by keyboard to scroll it.
  useEffect(() => {
    for (const region of container.current?.querySelectorAll('.rbc-time-content') ?? []) {
      region.setAttribute('tabindex', '0');
      region.setAttribute('role', 'group');
      region.setAttribute('aria-label', t('calendar.hours'));
    }
  });

  return (
    <Box
      ref={container}
      sx={{
        height: { xs: 'calc(100vh - 250px)', md: 'calc(100vh - 230px)' },
        minHeight: 480,
        bgcolor: 'background.paper',
        borderRadius: 1,
        '& .rbc-calendar': { fontFamily: theme.typography.fontFamily },
        // No all-day events in this diary (closures are said above it): RBC's all-day row, with
        // its table roles outside a table, stays out of the way and of the accessibility tree.
        '& .rbc-allday-cell, & .rbc-row:has(> .rbc-allday-cell)': { display: 'none' },
        '& .rbc-time-header-content': { borderInlineStart: `1px solid ${theme.palette.divider}` },
        '& .rbc-header': {
          fontWeight: 500,
          py: 0.5,
          color: 'text.primary',
          whiteSpace: 'normal',
        },
        '& .rbc-row-resource .rbc-header': { bgcolor: alpha(theme.palette.primary.main, 0.12) },
        '& .rbc-today': { bgcolor: alpha(theme.palette.primary.main, 0.06) },
        '& .rbc-label': { color: 'text.secondary', fontSize: '0.8rem' },
        '& .rbc-time-slot.diary-closed': {
          backgroundColor: theme.palette.grey[200],
          backgroundImage: `repeating-linear-gradient(135deg, transparent 0 6px, ${alpha(
            theme.palette.grey[500],
            0.18,
          )} 6px 7px)`,
        },
        '& .rbc-timeslot-group': { minHeight: 80 },
        // Time and words on one line, wrapping: a 20-minute appointment still says who.
        '& .rbc-day-slot .rbc-event, & .rbc-day-slot .rbc-background-event': {
          flexFlow: 'row wrap',
          alignItems: 'baseline',
          alignContent: 'flex-start',
          columnGap: 0.5,
          overflow: 'hidden',
        },
        '& .rbc-day-slot .rbc-event-label': { flex: 'none', paddingInlineEnd: 0 },
        '& .rbc-day-slot .rbc-event-content': { flex: '1 1 auto', minWidth: 0, height: 'auto' },
        '& .rbc-event.diary-appointment, & .rbc-day-slot .rbc-event.diary-appointment': {
          color: 'text.primary',
          border: `1px solid ${theme.palette.grey[400]}`,
          borderInlineStartWidth: 4,
          borderInlineStartStyle: 'solid',
          borderRadius: 1,
          fontSize: '0.8rem',
          lineHeight: 1.3,
          px: 0.5,
        },
        '& .rbc-event.diary-appointment.rbc-selected': {
          boxShadow: `0 0 0 2px ${theme.palette.text.primary}`,
        },
        '& .rbc-event:focus, & .rbc-background-event:focus, & .rbc-time-content:focus-visible': {
          outline: `3px solid ${theme.palette.text.primary}`,
          outlineOffset: 1,
        },
        '& .rbc-event-label': { fontSize: '0.75rem', color: 'text.secondary' },
        // Words for screen readers inside an event's name: inline (an absolutely placed
        // visually-hidden span would add a space before its comma in the accessible name).
        '& .diary-sr': { fontSize: 0 },
        '& .rbc-background-event.diary-busy': {
          opacity: 1,
          color: 'text.primary',
          border: `1px dashed ${theme.palette.grey[600]}`,
          backgroundColor: theme.palette.grey[100],
          backgroundImage: `repeating-linear-gradient(45deg, transparent 0 5px, ${alpha(
            theme.palette.grey[600],
            0.22,
          )} 5px 7px)`,
          fontSize: '0.75rem',
        },
        '& .rbc-background-event.diary-busy .rbc-event-label': { color: 'text.primary' },
        '& .diary-busy-text': { bgcolor: 'background.paper', px: 0.5, borderRadius: 0.5 },
        '& .rbc-current-time-indicator': { backgroundColor: theme.palette.error.main, height: 2 },
        '& .rbc-slot-selection': {
          backgroundColor: alpha(theme.palette.primary.main, 0.25),
          color: 'text.primary',
        },
      }}
    >
      <DragAndDropCalendar
        localizer={localizer}
        culture={culture}
        rtl={rtl}
        formats={formats}
        view={view}
        views={['day', 'week']}
        onView={() => undefined}
        date={day.toJSDate()}
        onNavigate={() => undefined}
        toolbar={false}
        getDrilldownView={() => null}
        events={events}
        backgroundEvents={background}
        startAccessor="start"
        endAccessor="end"
        titleAccessor={(event) =>
          event.kind === 'appointment'
            ? `${patientName(event.appointment)}, ${event.appointment.appointment_type.name}`
            : t('calendar.busy')
        }
        tooltipAccessor={() => ''}
        resources={caregivers}
        resourceIdAccessor="id"
        resourceTitleAccessor="name"
        resourceAccessor="resourceId"
        resourceGroupingLayout={view === 'week'}
        // A quarter-hour grid for a day; in a week of many caregivers' narrow columns, half hours:
        // half the cells to draw, and a click there is a starting point the dialog refines.
        step={view === 'week' ? 30 : 15}
        timeslots={view === 'week' ? 2 : 4}
        min={min}
        max={max}
        scrollToTime={min}
        dayLayoutAlgorithm="no-overlap"
        eventPropGetter={eventProps}
        slotPropGetter={slotProps}
        components={{ event: DiaryEventContent, header: PlainLabel, resourceHeader: PlainLabel }}
        selectable
        onSelectSlot={(slot: SlotInfo) => {
          if (slot.action === 'doubleClick') return;
          onSlot({
            start: slot.start.getTime(),
            caregiverId: slot.resourceId === undefined ? null : Number(slot.resourceId),
          });
        }}
        onSelectEvent={(event) => onOpen(event)}
        onKeyPressEvent={(event, e) => {
          const key = (e as unknown as KeyboardEvent).key;
          if (key === 'Enter' || key === ' ') {
            e.preventDefault();
            onOpen(event);
          }
        }}
        draggableAccessor={(event) =>
          event.kind === 'appointment' && event.start.getTime() > Date.now()
        }
        resizable={false}
        onEventDrop={({ event, start, resourceId }: EventInteractionArgs<DiaryEvent>) => {
          if (event.kind !== 'appointment') return;
          onDrop({
            event,
            start: new Date(start).getTime(),
            caregiverId: resourceId === undefined ? event.resourceId : Number(resourceId),
          });
        }}
      />
    </Box>
  );
});
