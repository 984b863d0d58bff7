// Calendar freshness (docs/calendar-sync.md, ADR 031): from an event added to a caregiver's Google
// Calendar to its slot gone from available-slots, against the production build in demo mode, whose
// in-process stand-in of Google's API pushes the change to Marpe as Google does (a notification to
// the notify route, then an incremental sync). Alone (after `npm run build -w @marpe/api`):
// `node bench/calendar-freshness.mjs`. Figures are printed, never asserted.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { startMarpe } from './servers.mjs';

const ROUNDS = 7;
const POLL_MS = 20;
const CLINIC_ID = 1;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
};

/** The first caregiver with a synced calendar and a free slot, and its shortest type. */
async function target(url) {
  const data = await (await fetch(`${url}/api/clinic/${CLINIC_ID}`)).json();
  const caregiver = data.caregivers.find((c) => c.first_available_slot);
  const type = data.appointmentTypes
    .filter((t) => caregiver.default_appointment_types.includes(t.id))
    .sort((a, b) => a.duration_minutes - b.duration_minutes)[0];
  return { caregiverId: caregiver.id, duration: type.duration_minutes };
}

async function slotsOn(url, { caregiverId, duration }, date) {
  const query = new URLSearchParams({
    clinicId: String(CLINIC_ID),
    caregiverId: String(caregiverId),
    duration: String(duration),
    startDate: `${date} 00:00`,
    endDate: `${date} 23:59`,
  });
  const response = await fetch(`${url}/api/appointment/available-slots?${query}`);
  return (await response.json()).map((slot) => slot.start);
}

/** An ISO time with the clinic's offset as clinic wall time, 'YYYY-MM-DD HH:mm'. */
const wall = (iso) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

/** Wall time `minutes` later on the same day (the slots taken are mid-day). */
function laterWall(time, minutes) {
  const total = Number(time.slice(11, 13)) * 60 + Number(time.slice(14, 16)) + minutes;
  const hh = String(Math.floor(total / 60)).padStart(2, '0');
  return `${time.slice(0, 10)} ${hh}:${String(total % 60).padStart(2, '0')}`;
}

export async function calendarFreshness() {
  const marpe = await startMarpe();
  try {
    const who = await target(marpe.url);
    const dates = await (
      await fetch(
        `${marpe.url}/api/appointment/available-dates?clinicId=${CLINIC_ID}&caregiverId=${who.caregiverId}&duration=${who.duration}`,
      )
    ).json();
    const times = [];
    for (let round = 0; round < ROUNDS; round++) {
      const date = dates[round + 1] ?? dates[0];
      const slots = await slotsOn(marpe.url, who, date);
      const start = slots[Math.floor(slots.length / 2)];
      const began = performance.now();
      const added = await fetch(`${marpe.url}/api/dev/calendar-events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          caregiverId: who.caregiverId,
          start: wall(start),
          end: laterWall(wall(start), who.duration),
        }),
      });
      if (added.status !== 200) throw new Error(`dev calendar event: ${added.status}`);
      while ((await slotsOn(marpe.url, who, date)).includes(start)) {
        if (performance.now() - began > 30_000) throw new Error('the slot never went');
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      times.push(performance.now() - began);
    }
    return [
      {
        measure: 'event added in the calendar → slot gone (push, sync, query)',
        rounds: ROUNDS,
        'median ms': Math.round(median(times)),
        'max ms': Math.round(Math.max(...times)),
        goal: '≤ 2,000 ms',
      },
    ];
  } finally {
    await marpe.stop();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await calendarFreshness());
}
