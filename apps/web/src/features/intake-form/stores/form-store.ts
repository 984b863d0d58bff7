import {
  calendarDateOf,
  defaultInputData,
  inputDataSchema,
  pruneHidden,
  resolveForm,
  type CalendarDate,
  type IntakeFormData,
  type InputData,
} from '@marpe/shared';
import { create } from 'zustand';

/** SPEC § 9: the form opens on its first step. */
export const initialStepIndex = 0;

/** "Today" for conditions and dates: the clinic's calendar day, whatever the device's zone. */
export function clinicToday(now: Date = new Date()): CalendarDate {
  return calendarDateOf(now, 'Asia/Jerusalem');
}

// Progress is kept on the device per link, so a reload, a closed tab or a crashed browser comes
// back to the same answers and step. It holds health answers and a signature: it is deleted on a
// successful submit and when the link turns out to be invalid (404), and never sent anywhere.
const storagePrefix = 'marpe.intake-form.';

export function progressKey(token: string): string {
  return `${storagePrefix}${token}`;
}

interface SavedProgress {
  currentStepIndex: number;
  inputData: InputData;
}

function readProgress(token: string): SavedProgress | null {
  try {
    const raw = window.localStorage.getItem(progressKey(token));
    if (!raw) return null;
    const saved = JSON.parse(raw) as { currentStepIndex?: unknown; inputData?: unknown };
    const inputData = inputDataSchema.safeParse(saved.inputData);
    if (!inputData.success || !Number.isInteger(saved.currentStepIndex)) return null;
    return { currentStepIndex: saved.currentStepIndex as number, inputData: inputData.data };
  } catch {
    return null;
  }
}

function writeProgress(token: string, progress: SavedProgress): void {
  try {
    window.localStorage.setItem(progressKey(token), JSON.stringify(progress));
  } catch {
    // Storage full or disabled (private mode): the form still works, only without the safety net.
  }
}

/** Deletes what the device keeps of this link's answers. */
export function forgetProgress(token: string): void {
  try {
    window.localStorage.removeItem(progressKey(token));
  } catch {
    // Nothing was kept.
  }
}

/** SPEC § 3 "Form store". */
export interface FormState {
  currentStepIndex: number;
  token: string;
  /** As loaded, with the schema's `{{initData.key}}` placeholders resolved. */
  formData: IntakeFormData | null;
  /** Field name → entered value (a signature's image data URL). */
  inputData: InputData;

  /** A loaded form: the saved progress of this link if any, else the fields' defaults. */
  load: (token: string, formData: IntakeFormData, today?: CalendarDate) => void;
  /** SPEC § 4: a change re-evaluates conditions and drops values of fields now hidden. */
  setValue: (name: string, value: string | boolean, today?: CalendarDate) => void;
  goToStep: (index: number) => void;
  /** SPEC § 4: after a successful submit (or an invalid link): memory and device both. */
  reset: () => void;
}

const initial = {
  currentStepIndex: initialStepIndex,
  token: '',
  formData: null,
  inputData: {},
} satisfies Partial<FormState>;

export const useFormStore = create<FormState>()((set, get) => {
  function save() {
    const { token, currentStepIndex, inputData, formData } = get();
    if (token && formData) writeProgress(token, { currentStepIndex, inputData });
  }

  return {
    ...initial,

    load: (token, formData, today = clinicToday()) => {
      const schema = resolveForm(formData.schema, formData.initData);
      const saved = readProgress(token);
      const lastStep = schema.length - 1;
      set({
        token,
        formData: { ...formData, schema },
        inputData: pruneHidden(schema, saved?.inputData ?? defaultInputData(schema), today),
        currentStepIndex: Math.min(
          Math.max(saved?.currentStepIndex ?? initialStepIndex, 0),
          lastStep,
        ),
      });
    },

    setValue: (name, value, today = clinicToday()) => {
      const { formData, inputData } = get();
      if (!formData) return;
      set({ inputData: pruneHidden(formData.schema, { ...inputData, [name]: value }, today) });
      save();
    },

    goToStep: (index) => {
      const { formData } = get();
      if (!formData || index < 0 || index >= formData.schema.length) return;
      set({ currentStepIndex: index });
      save();
    },

    reset: () => {
      const { token } = get();
      if (token) forgetProgress(token);
      set(initial);
    },
  };
});
