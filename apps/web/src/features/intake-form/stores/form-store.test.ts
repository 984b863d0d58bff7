import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../../../lib/api-client';
import { apiError, json, stubApi } from '../../../test/fake-api';
import { formFixture } from '../test/form-fixture';
import {
  clinicToday,
  createFormStore,
  draftRetryDelaysMs,
  draftSaveDelayMs,
  legacyProgressKey,
} from './form-store';
import { unsentAnswersKey } from '../../../lib/form-storage-keys';

const today = { year: 2026, month: 11, day: 21 };
let formStore = createFormStore();
const store = () => formStore.getState();

beforeEach(() => {
  formStore = createFormStore();
  configureApiClient({ baseUrl: '/api' });
  vi.useFakeTimers();
});
afterEach(() => {
  store().reset();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.localStorage.clear();
  window.sessionStorage.clear();
});

/** Lets the timers due within `ms` fire, and the saves they start settle. */
async function advance(ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
}

describe('form store', () => {
  it('starts on step 0 with placeholders resolved and defaults entered', () => {
    store().load('tok', formFixture(), null, today);
    const state = store();
    expect(state.currentStepIndex).toBe(0);
    expect(state.token).toBe('tok');
    expect(state.formData?.schema[0]?.title).toBe('שלום דנה');
    expect(state.inputData).toEqual({ fullName: 'דנה' });
    expect(state.draftStatus).toBe('idle');
  });

  it("resumes the link's draft from the server, on its step", () => {
    store().load('tok', formFixture(), { inputData: { fullName: 'שמור' }, stepIndex: 1 }, today);
    expect(store()).toMatchObject({
      currentStepIndex: 1,
      inputData: { fullName: 'שמור' },
      draftStatus: 'saved',
    });
    store().load('tok', formFixture(), { inputData: {}, stepIndex: 9 }, today);
    expect(store().currentStepIndex).toBe(1);
  });

  it("starts loaded with a link's answer alone: what the device holds waits for load", async () => {
    window.localStorage.setItem(
      legacyProgressKey('tok'),
      JSON.stringify({ currentStepIndex: 0, inputData: { fullName: 'ישן' } }),
    );
    const api = stubApi({ 'POST /api/save-form-draft': () => json({ status: 'ok' }) });
    const draft = { inputData: { fullName: 'שמור' }, stepIndex: 1 };
    formStore = createFormStore({ token: 'tok', formData: formFixture(), draft }, today);
    expect(store()).toMatchObject({
      token: 'tok',
      currentStepIndex: 1,
      inputData: { fullName: 'שמור' },
      draftStatus: 'saved',
    });
    expect(store().formData?.schema[0]?.title).toBe('שלום דנה');
    // React renders the server's HTML and hydrates it from the store's first state.
    expect(formStore.getInitialState()).toBe(store());
    await advance(0);
    expect(api.calls).toHaveLength(0);
    expect(window.localStorage.getItem(legacyProgressKey('tok'))).not.toBeNull();

    store().load('tok', formFixture(), draft, today);
    expect(store()).toMatchObject({ currentStepIndex: 1, inputData: { fullName: 'שמור' } });
    expect(window.localStorage.getItem(legacyProgressKey('tok'))).toBeNull();
  });

  it('drops the value of a field that a change hid', () => {
    stubApi({ 'POST /api/save-form-draft': () => json({ status: 'ok' }) });
    store().load('tok', formFixture(), null, today);
    store().setValue('smoker', true, today);
    store().setValue('packs', '2', today);
    expect(store().inputData.packs).toBe('2');
    store().setValue('smoker', false, today);
    expect(store().inputData).not.toHaveProperty('packs');
  });

  it('saves the answers to the server once typing pauses, and a finished step at once', async () => {
    const api = stubApi({ 'POST /api/save-form-draft': () => json({ status: 'ok' }) });
    store().load('tok', formFixture(), null, today);
    store().setValue('fullName', 'ד', today);
    store().setValue('fullName', 'דנה לוי', today);
    expect(store().draftStatus).toBe('saving');
    await advance(draftSaveDelayMs - 1);
    expect(api.calls).toHaveLength(0);
    await advance(1);
    expect(api.callsTo('POST /api/save-form-draft').map((c) => c.body)).toEqual([
      { token: 'tok', inputData: { fullName: 'דנה לוי' }, stepIndex: 0 },
    ]);
    expect(store().draftStatus).toBe('saved');

    store().goToStep(1);
    await advance(0);
    expect(api.calls.at(-1)?.body).toEqual({
      token: 'tok',
      inputData: { fullName: 'דנה לוי' },
      stepIndex: 1,
    });
    // Nothing of the answers is kept on the device.
    expect(window.localStorage.length).toBe(0);
    expect(window.sessionStorage.length).toBe(0);
  });

  it('sends unsaved answers at once, outliving the page, when the page is hidden', async () => {
    let answer: (response: Response) => void = () => undefined;
    const api = stubApi({
      'POST /api/save-form-draft': [
        () => new Promise<Response>((resolve) => (answer = resolve)),
        () => json({ status: 'ok' }),
      ],
    });
    const keepalive = () => api.fetchMock.mock.calls.map(([, init]) => init?.keepalive ?? false);
    store().load('tok', formFixture(), null, today);
    expect(store().saveBeforeHiding()).toBe(true);
    expect(api.calls).toHaveLength(0);

    store().setValue('fullName', 'דנה', today);
    // Sent before it returns: a closing page has dispatched it by then.
    expect(store().saveBeforeHiding()).toBe(true);
    expect(api.calls).toHaveLength(1);
    await advance(0);
    expect(keepalive()).toEqual([true]);
    // Typed while that save is on its way, hidden again: sent at once beside it.
    store().setValue('fullName', 'דנה לוי', today);
    store().saveBeforeHiding();
    await advance(0);
    expect(api.calls.map((c) => (c.body as { inputData: object }).inputData)).toEqual([
      { fullName: 'דנה' },
      { fullName: 'דנה לוי' },
    ]);
    expect(keepalive()).toEqual([true, true]);
    answer(json({ status: 'ok' }));
    await advance(draftSaveDelayMs * 2);
    expect(api.calls).toHaveLength(2);
    expect(store().draftStatus).toBe('saved');

    // Beyond what a browser lets outlive a page: a plain request.
    store().setValue('fullName', 'א'.repeat(40_000), today);
    // The page may lose it: the beforeunload question stays.
    expect(store().saveBeforeHiding()).toBe(false);
    await advance(0);
    expect(keepalive()).toEqual([true, true, false]);
  });

  it('keeps answers left unconfirmed in this tab; the next page resumes them while the server lacks them', async () => {
    let answer: (response: Response) => void = () => undefined;
    const api = stubApi({
      'POST /api/save-form-draft': [
        () => new Promise<Response>((resolve) => (answer = resolve)),
        () => json({ status: 'ok' }),
      ],
    });
    const base = { inputData: { fullName: 'דנה' }, stepIndex: 0 };
    store().load('tok', formFixture(), base, today);
    // Nothing unconfirmed: nothing kept.
    store().saveBeforeHiding();
    expect(window.sessionStorage.getItem(unsentAnswersKey('tok'))).toBeNull();

    store().setValue('fullName', 'דנה לוי', today);
    store().saveBeforeHiding();
    expect(JSON.parse(window.sessionStorage.getItem(unsentAnswersKey('tok')) ?? '')).toEqual({
      draft: { inputData: { fullName: 'דנה לוי' }, stepIndex: 0 },
      base,
    });

    // The reload's page was rendered before that save landed: it shows the older draft, and the
    // tab's answers win, and go to the server again.
    const next = createFormStore();
    next.getState().load('tok', formFixture(), base, today);
    expect(next.getState().inputData).toEqual({ fullName: 'דנה לוי' });
    await advance(0);
    expect(api.calls.map((c) => (c.body as { inputData: object }).inputData)).toEqual([
      { fullName: 'דנה לוי' },
      { fullName: 'דנה לוי' },
    ]);
    expect(next.getState().draftStatus).toBe('saved');
    // Confirmed: the tab keeps nothing.
    expect(window.sessionStorage.getItem(unsentAnswersKey('tok'))).toBeNull();
    answer(json({ status: 'ok' }));
    await advance(0);
    next.getState().reset();
  });

  it('drops the tab’s unsent answers once the server holds them or has moved on', () => {
    const base = { inputData: { fullName: 'דנה' }, stepIndex: 0 };
    const unsent = { inputData: { fullName: 'דנה לוי' }, stepIndex: 0 };
    const keep = () =>
      window.sessionStorage.setItem(
        unsentAnswersKey('tok'),
        JSON.stringify({ draft: unsent, base }),
      );
    keep();
    store().load('tok', formFixture(), unsent, today);
    expect(store().draftStatus).toBe('saved');
    expect(window.sessionStorage.getItem(unsentAnswersKey('tok'))).toBeNull();

    // Another device saved other answers since: the server's win.
    keep();
    const elsewhere = { inputData: { fullName: 'רחל' }, stepIndex: 1 };
    store().load('tok', formFixture(), elsewhere, today);
    expect(store()).toMatchObject({ inputData: { fullName: 'רחל' }, currentStepIndex: 1 });
    expect(window.sessionStorage.getItem(unsentAnswersKey('tok'))).toBeNull();
  });

  it('sends a change made during a save right after it, never two saves at once', async () => {
    let answer: (response: Response) => void = () => undefined;
    const api = stubApi({
      'POST /api/save-form-draft': [
        () => new Promise<Response>((resolve) => (answer = resolve)),
        () => json({ status: 'ok' }),
      ],
    });
    store().load('tok', formFixture(), null, today);
    store().setValue('fullName', 'א', today);
    await advance(draftSaveDelayMs);
    store().setValue('fullName', 'אב', today);
    await advance(draftSaveDelayMs * 3);
    expect(api.calls).toHaveLength(1);
    answer(json({ status: 'ok' }));
    await advance(0);
    expect(api.calls.map((c) => (c.body as { inputData: object }).inputData)).toEqual([
      { fullName: 'א' },
      { fullName: 'אב' },
    ]);
    expect(store().draftStatus).toBe('saved');
  });

  it('without a connection keeps the answers in memory, says so, and retries with backoff', async () => {
    const api = stubApi({
      'POST /api/save-form-draft': [
        () => Promise.reject(new TypeError('Failed to fetch')),
        () => apiError(503, 'unavailable'),
        () => json({ status: 'ok' }),
      ],
    });
    store().load('tok', formFixture(), null, today);
    store().setValue('fullName', 'דנה', today);
    await advance(draftSaveDelayMs);
    expect(store().draftStatus).toBe('unsaved');
    expect(store().inputData).toEqual({ fullName: 'דנה' });

    await advance((draftRetryDelaysMs[0] ?? 0) - 1);
    expect(api.calls).toHaveLength(1);
    await advance(1);
    expect(api.calls).toHaveLength(2);
    expect(store().draftStatus).toBe('unsaved');
    await advance(draftRetryDelaysMs[1] ?? 0);
    expect(api.calls).toHaveLength(3);
    expect(api.calls.at(-1)?.body).toMatchObject({ inputData: { fullName: 'דנה' } });
    expect(store().draftStatus).toBe('saved');
  });

  it('does not retry what the server refused (the link is over), nor after a reset', async () => {
    const api = stubApi({ 'POST /api/save-form-draft': () => apiError(404, 'not_found') });
    store().load('tok', formFixture(), null, today);
    store().setValue('fullName', 'x', today);
    await advance(draftSaveDelayMs);
    expect(store().draftStatus).toBe('idle');
    await advance(60_000);
    expect(api.calls).toHaveLength(1);

    store().setValue('fullName', 'y', today);
    store().reset();
    await advance(60_000);
    expect(api.calls).toHaveLength(1);
  });

  it("moves an earlier version's answers from the device to the server, this link's and others'", async () => {
    window.localStorage.setItem(
      legacyProgressKey('tok'),
      JSON.stringify({ currentStepIndex: 1, inputData: { fullName: 'ישן' } }),
    );
    window.localStorage.setItem(
      legacyProgressKey('other'),
      JSON.stringify({ currentStepIndex: 0, inputData: { email: 'a@b.c' } }),
    );
    window.localStorage.setItem('lang', 'he');
    const api = stubApi({ 'POST /api/save-form-draft': () => json({ status: 'ok' }) });
    store().load('tok', formFixture(), null, today);
    expect(store()).toMatchObject({ currentStepIndex: 1, inputData: { fullName: 'ישן' } });
    await advance(0);
    expect(api.calls.map((c) => c.body)).toEqual(
      expect.arrayContaining([
        { token: 'tok', inputData: { fullName: 'ישן' }, stepIndex: 1 },
        { token: 'other', inputData: { email: 'a@b.c' }, stepIndex: 0 },
      ]),
    );
    expect(Object.keys(window.localStorage)).toEqual(['lang']);
  });

  it('reset empties the store', () => {
    stubApi({ 'POST /api/save-form-draft': () => json({ status: 'ok' }) });
    store().load('tok', formFixture(), null, today);
    store().setValue('fullName', 'x', today);
    store().reset();
    expect(store()).toMatchObject({
      token: '',
      formData: null,
      inputData: {},
      draftStatus: 'idle',
    });
  });

  it("today is the clinic's calendar day", () => {
    // 22:30 UTC on 31 Dec is already 1 Jan in Jerusalem.
    expect(clinicToday(new Date('2026-12-31T22:30:00Z'))).toEqual({ year: 2027, month: 1, day: 1 });
  });
});
