import type { CalendarDate, FormDraft, IntakeFormData, InputData } from '@marpe/shared';
import {
  calendarDateOf,
  defaultInputData,
  parseInputData,
  pruneHidden,
  resolveForm,
} from '@marpe/shared/rules';
import { createContext, useContext } from 'react';
import { createStore, useStore, type StoreApi } from 'zustand';
import { ApiError } from '../../../lib/api-client';
import { unsentAnswersKey } from '../../../lib/form-storage-keys';
import { canOutlivePage, saveFormDraft } from '../api/save-form-draft';

/** The form opens on its first step. */
export const initialStepIndex = 0;

/** "Today" for conditions and dates: the clinic's calendar day, whatever the device's zone. */
export function clinicToday(now: Date = new Date()): CalendarDate {
  return calendarDateOf(now, 'Asia/Jerusalem');
}

/** How long typing pauses before the answers are saved. */
export const draftSaveDelayMs = 800;
/** Waits before each retry of a save that reached no server; the last repeats. */
export const draftRetryDelaysMs = [2_000, 4_000, 8_000, 15_000, 30_000];

/**
 * Where an earlier version kept each link's answers on the device, keyed by its token. They hold
 * health answers and a signature: they are moved to the server and deleted (ADR 016).
 */
const legacyPrefix = 'marpe.intake-form.';

export function legacyProgressKey(token: string): string {
  return `${legacyPrefix}${token}`;
}

function takeLegacyProgress(token: string): FormDraft | null {
  try {
    const raw = window.localStorage.getItem(legacyProgressKey(token));
    if (raw === null) return null;
    window.localStorage.removeItem(legacyProgressKey(token));
    const saved = JSON.parse(raw) as { currentStepIndex?: unknown; inputData?: unknown };
    const inputData = parseInputData(saved.inputData);
    if (!inputData || !Number.isInteger(saved.currentStepIndex)) return null;
    return { inputData, stepIndex: saved.currentStepIndex as number };
  } catch {
    return null;
  }
}

/** The other links' answers an earlier version left on this device, sent to their drafts. */
export async function moveLegacyDrafts(except: string): Promise<void> {
  let keys: string[];
  try {
    keys = Object.keys(window.localStorage).filter((key) => key.startsWith(legacyPrefix));
  } catch {
    return;
  }
  for (const key of keys) {
    const token = key.slice(legacyPrefix.length);
    if (token === except || token === '') continue;
    const draft = takeLegacyProgress(token);
    if (!draft) continue;
    try {
      await saveFormDraft(token, draft);
    } catch (error) {
      // Kept for a later visit unless the link is over or the draft cannot be kept.
      if (!(error instanceof ApiError) || error.status === 0 || error.status >= 429) {
        window.localStorage.setItem(
          key,
          JSON.stringify({ currentStepIndex: draft.stepIndex, inputData: draft.inputData }),
        );
      }
    }
  }
}

/**
 * Answers the server had not confirmed when the page was hidden or left, kept in this tab until it
 * does: a reload can render the page before the save sent on leaving has landed (ADR 016, amended).
 * `base`: the draft the server was known to hold then, to tell whether it has moved on since.
 */
interface UnsentAnswers {
  draft: FormDraft;
  base: FormDraft | null;
}

function parseDraft(value: unknown): FormDraft | null {
  if (typeof value !== 'object' || value === null) return null;
  const { inputData, stepIndex } = value as { inputData?: unknown; stepIndex?: unknown };
  const parsed = parseInputData(inputData);
  return parsed && Number.isInteger(stepIndex)
    ? { inputData: parsed, stepIndex: stepIndex as number }
    : null;
}

function readUnsent(token: string): UnsentAnswers | null {
  try {
    const raw = window.sessionStorage.getItem(unsentAnswersKey(token));
    if (raw === null) return null;
    const saved = JSON.parse(raw) as { draft?: unknown; base?: unknown };
    const draft = parseDraft(saved.draft);
    if (!draft) return null;
    return { draft, base: saved.base === null ? null : parseDraft(saved.base) };
  } catch {
    return null;
  }
}

function writeUnsent(token: string, unsent: UnsentAnswers): void {
  try {
    window.sessionStorage.setItem(unsentAnswersKey(token), JSON.stringify(unsent));
  } catch {
    // No room or no storage: the save sent on leaving is all there is, as before.
  }
}

function removeUnsent(token: string): void {
  try {
    window.sessionStorage.removeItem(unsentAnswersKey(token));
  } catch {
    // No storage: nothing was kept.
  }
}

/** Whether two drafts hold the same step and answers, whatever their keys' order. */
function sameDraft(a: FormDraft | null, b: FormDraft | null): boolean {
  if (a === null || b === null) return a === b;
  const keys = Object.keys(a.inputData);
  return (
    a.stepIndex === b.stepIndex &&
    keys.length === Object.keys(b.inputData).length &&
    keys.every((key) => a.inputData[key] === b.inputData[key])
  );
}

/**
 * `saved`: the server holds what is on screen; `saving`: changes on their way; `unsaved`: a save
 * failed (no connection): the answers are only in this page's memory and are retried.
 */
export type DraftStatus = 'idle' | 'saving' | 'saved' | 'unsaved';

/** docs/product/intake-form.md#form-store. */
export interface FormState {
  currentStepIndex: number;
  token: string;
  /** As loaded, with the schema's `{{initData.key}}` placeholders resolved. */
  formData: IntakeFormData | null;
  /** Field name → entered value (a signature's image data URL). */
  inputData: InputData;
  draftStatus: DraftStatus;

  /** A loaded form: the link's draft if any, else the fields' defaults. */
  load: (
    token: string,
    formData: IntakeFormData,
    draft?: FormDraft | null,
    today?: CalendarDate,
  ) => void;
  /**
   * A change re-evaluates conditions and drops values of fields now hidden
   * (docs/forms.md#conditions).
   */
  setValue: (name: string, value: string | boolean, today?: CalendarDate) => void;
  goToStep: (index: number) => void;
  /** After a successful submit (or an invalid link). */
  reset: () => void;
  /**
   * The page is being hidden or closed: unsaved answers go now, in a request that outlives the
   * page, instead of after the typing delay (which a reload or an app switch would cut short).
   * False when leaving now may still lose answers: no connection, or a save on its way that the
   * browser would cut (too large to outlive the page).
   */
  saveBeforeHiding: () => boolean;
}

const initial = {
  currentStepIndex: initialStepIndex,
  token: '',
  formData: null,
  inputData: {},
  draftStatus: 'idle',
} satisfies Partial<FormState>;

/**
 * A link's form as get-form answers it (docs/product/intake-form.md#calls): the form and its draft,
 * if any.
 */
export interface FormToLoad {
  token: string;
  formData: IntakeFormData;
  draft: FormDraft | null;
}

/**
 * A loaded form's state: the saved answers (`saved`: the link's draft, or what an earlier version
 * kept on the device) if any, else the fields' defaults; the link's draft counts as saved.
 */
function loadedState(
  { token, formData, draft }: FormToLoad,
  saved: FormDraft | null,
  today: CalendarDate,
): Pick<FormState, 'token' | 'formData' | 'inputData' | 'currentStepIndex' | 'draftStatus'> {
  const schema = resolveForm(formData.schema, formData.initData);
  const lastStep = schema.length - 1;
  return {
    token,
    formData: { ...formData, schema },
    inputData: pruneHidden(schema, saved?.inputData ?? defaultInputData(schema), today),
    currentStepIndex: Math.min(Math.max(saved?.stepIndex ?? initialStepIndex, 0), lastStep),
    draftStatus: draft ? 'saved' : 'idle',
  };
}

export type FormStore = StoreApi<FormState>;

/**
 * One page's form store (one per page, not one per app: the server renders many patients' forms).
 * Given the link's answer (`loaded`), the store starts loaded with it and nothing else, so that its
 * first state is the one the server rendered the page with (ADR 021), which React reads on the
 * server and as it hydrates. `load` is still to be called with that answer once the page is
 * mounted, for what only the device holds.
 */
export function createFormStore(
  loaded?: FormToLoad,
  today: CalendarDate = clinicToday(),
): FormStore {
  return createStore<FormState>()((set, get) => {
    // The draft goes to the server a moment after typing stops, one save at a time; a failed one
    // is retried with backoff while the answers wait in memory. `generation` drops the answers of
    // saves that belong to a form since unloaded.
    let timer: ReturnType<typeof setTimeout> | undefined;
    let dirty = false;
    /** Saves on their way: the timer's, and any sent as the page was hidden. */
    let inFlight = 0;
    /** Those of them a closing page would cut (sent without keepalive). */
    let cuttable = 0;
    let failures = 0;
    let generation = 0;
    /** The draft the server is known to hold: the link's as loaded, then each one it confirmed. */
    let confirmed: FormDraft | null = loaded?.draft ?? null;

    function schedule(delayMs: number) {
      clearTimeout(timer);
      timer = setTimeout(() => void flush(), delayMs);
    }

    /**
     * `outlivePage`: sent at once as the page is hidden, even beside a save on its way (the
     * newer answers must not wait for it: the page may be gone by then).
     */
    async function flush({ outlivePage = false }: { outlivePage?: boolean } = {}) {
      clearTimeout(timer);
      timer = undefined;
      const { token, formData, inputData, currentStepIndex } = get();
      if (!token || !formData || !dirty || (inFlight > 0 && !outlivePage)) return;
      const mine = generation;
      const draft = { inputData, stepIndex: currentStepIndex };
      const keepalive = outlivePage && canOutlivePage(token, draft);
      dirty = false;
      inFlight += 1;
      if (!keepalive) cuttable += 1;
      set({ draftStatus: 'saving' });
      let outcome: 'saved' | 'retry' | 'refused' = 'saved';
      try {
        await saveFormDraft(token, draft, { keepalive });
      } catch (error) {
        // 400: the server cannot keep this draft (the next change tries again); 404: the link is
        // over, which the submit will show. Anything else never reached it: try again.
        const reached = error instanceof ApiError && error.status !== 0 && error.status < 429;
        outcome = reached ? 'refused' : 'retry';
      } finally {
        inFlight -= 1;
        if (!keepalive) cuttable -= 1;
      }
      if (mine !== generation) return;
      if (outcome === 'saved') confirmed = draft;
      if (outcome === 'retry') {
        dirty = true;
        failures += 1;
        set({ draftStatus: 'unsaved' });
        schedule(draftRetryDelaysMs[Math.min(failures, draftRetryDelaysMs.length) - 1] ?? 30_000);
        return;
      }
      failures = 0;
      if (dirty) schedule(0);
      else if (inFlight === 0) {
        set({ draftStatus: outcome === 'saved' ? 'saved' : 'idle' });
        // Confirmed, or refused for good (the link is over): nothing is left to keep.
        removeUnsent(token);
      }
    }

    function changed(delayMs: number) {
      dirty = true;
      // After a failure the retry timer is running: a change does not wait for it.
      if (get().draftStatus !== 'unsaved') set({ draftStatus: 'saving' });
      schedule(delayMs);
    }

    function stop() {
      clearTimeout(timer);
      timer = undefined;
      dirty = false;
      failures = 0;
      generation += 1;
    }

    return {
      ...initial,
      ...(loaded && loadedState(loaded, loaded.draft, today)),

      load: (token, formData, draft = null, today = clinicToday()) => {
        stop();
        confirmed = draft;
        const legacy = takeLegacyProgress(token);
        const unsent = readUnsent(token);
        // This tab's unsent answers win while the server still holds what they were based on;
        // once it holds them, or answers saved since (another device), they go.
        const resume =
          unsent && !sameDraft(unsent.draft, draft) && sameDraft(unsent.base, draft)
            ? unsent.draft
            : null;
        if (unsent && !resume) removeUnsent(token);
        set(loadedState({ token, formData, draft }, resume ?? draft ?? legacy, today));
        // What only this device holds moves to the server at once.
        if (resume || (!draft && legacy)) changed(0);
        void moveLegacyDrafts(token);
      },

      setValue: (name, value, today = clinicToday()) => {
        const { formData, inputData } = get();
        if (!formData) return;
        set({ inputData: pruneHidden(formData.schema, { ...inputData, [name]: value }, today) });
        changed(draftSaveDelayMs);
      },

      goToStep: (index) => {
        const { formData } = get();
        if (!formData || index < 0 || index >= formData.schema.length) return;
        set({ currentStepIndex: index });
        // A finished step is saved at once, whatever the typing delay.
        changed(0);
      },

      reset: () => {
        stop();
        if (get().token) removeUnsent(get().token);
        set(initial);
      },

      saveBeforeHiding: () => {
        const { token, formData, inputData, currentStepIndex, draftStatus } = get();
        const offline = draftStatus === 'unsaved';
        // Kept in this tab until the server confirms them: the page that comes next (a reload)
        // may be rendered before this save lands.
        if (token && formData && (draftStatus === 'saving' || offline)) {
          writeUnsent(token, {
            draft: { inputData, stepIndex: currentStepIndex },
            base: confirmed,
          });
        }
        // Runs up to the request's dispatch before it returns: a closing page has sent it.
        void flush({ outlivePage: true });
        return !offline && cuttable === 0;
      },
    };
  });
}

const FormStoreContext = createContext<FormStore | null>(null);

/** Gives the page's form store to the form's components. */
export const FormStoreProvider = FormStoreContext.Provider;

/** The page's form store itself, for reading its latest state in a handler. */
export function useFormStoreApi(): FormStore {
  const store = useContext(FormStoreContext);
  if (!store) throw new Error('the intake form needs a FormStoreProvider');
  return store;
}

/** A part of the page's form state; the component renders again when it changes. */
export function useFormStore<T>(selector: (state: FormState) => T): T {
  return useStore(useFormStoreApi(), selector);
}
