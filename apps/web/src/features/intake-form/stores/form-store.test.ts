import { afterEach, describe, expect, it } from 'vitest';
import { formFixture } from '../test/form-fixture';
import { clinicToday, progressKey, useFormStore } from './form-store';

const today = { year: 2026, month: 11, day: 21 };

afterEach(() => useFormStore.getState().reset());

describe('form store', () => {
  it('starts on step 0 with placeholders resolved and defaults entered', () => {
    useFormStore.getState().load('tok', formFixture(), today);
    const state = useFormStore.getState();
    expect(state.currentStepIndex).toBe(0);
    expect(state.token).toBe('tok');
    expect(state.formData?.schema[0]?.title).toBe('שלום דנה');
    expect(state.inputData).toEqual({ fullName: 'דנה' });
  });

  it('drops the value of a field that a change hid', () => {
    const store = useFormStore.getState();
    store.load('tok', formFixture(), today);
    store.setValue('smoker', true, today);
    store.setValue('packs', '2', today);
    expect(useFormStore.getState().inputData.packs).toBe('2');
    store.setValue('smoker', false, today);
    expect(useFormStore.getState().inputData).not.toHaveProperty('packs');
  });

  it('saves every change and the step per link, and restores them on the next load', () => {
    const store = useFormStore.getState();
    store.load('tok', formFixture(), today);
    store.setValue('fullName', 'דנה לוי', today);
    store.goToStep(1);
    expect(JSON.parse(window.localStorage.getItem(progressKey('tok')) ?? '')).toEqual({
      currentStepIndex: 1,
      inputData: { fullName: 'דנה לוי' },
    });

    useFormStore.setState({ token: '', formData: null, inputData: {}, currentStepIndex: 0 });
    useFormStore.getState().load('tok', formFixture(), today);
    expect(useFormStore.getState().currentStepIndex).toBe(1);
    expect(useFormStore.getState().inputData).toEqual({ fullName: 'דנה לוי' });

    // Another link starts afresh.
    useFormStore.getState().load('other', formFixture(), today);
    expect(useFormStore.getState().currentStepIndex).toBe(0);
  });

  it('ignores saved progress that is malformed or out of range', () => {
    window.localStorage.setItem(progressKey('tok'), '{"currentStepIndex":9,"inputData":{"a":1}}');
    useFormStore.getState().load('tok', formFixture(), today);
    expect(useFormStore.getState().currentStepIndex).toBe(0);
    window.localStorage.setItem(progressKey('tok'), '{"currentStepIndex":9,"inputData":{}}');
    useFormStore.getState().load('tok', formFixture(), today);
    expect(useFormStore.getState().currentStepIndex).toBe(1);
  });

  it('reset forgets the answers on the device', () => {
    const store = useFormStore.getState();
    store.load('tok', formFixture(), today);
    store.setValue('fullName', 'x', today);
    store.reset();
    expect(window.localStorage.getItem(progressKey('tok'))).toBeNull();
    expect(useFormStore.getState()).toMatchObject({ token: '', formData: null, inputData: {} });
  });

  it("today is the clinic's calendar day", () => {
    // 22:30 UTC on 31 Dec is already 1 Jan in Jerusalem.
    expect(clinicToday(new Date('2026-12-31T22:30:00Z'))).toEqual({ year: 2027, month: 1, day: 1 });
  });
});
