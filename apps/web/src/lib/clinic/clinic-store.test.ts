import type { ClinicData } from '@marpe/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { clinicFixture } from '../../test/clinic-fixture';
import { useClinicStore } from './clinic-store';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function clinic(id: number, acceptNew = true): ClinicData {
  const data = clinicFixture();
  data.clinic.id = id;
  data.clinic.settings.is_accept_new_patients = acceptNew;
  return data;
}

afterEach(() => {
  useClinicStore.setState({
    clinic: null,
    caregivers: [],
    appointmentTypes: [],
    loading: false,
    isAcceptNewPatients: false,
  });
});

describe('clinic store', () => {
  it('starts empty, not accepting new patients', () => {
    const state = useClinicStore.getState();
    expect(state.clinic).toBeNull();
    expect(state.caregivers).toEqual([]);
    expect(state.appointmentTypes).toEqual([]);
    expect(state.loading).toBe(false);
    expect(state.isAcceptNewPatients).toBe(false);
  });

  it('selectClinic: loading while it loads, then the clinic, caregivers, types and the flag', async () => {
    const answer = deferred<ClinicData>();
    const loads: number[] = [];
    const done = useClinicStore.getState().selectClinic(1, (id) => {
      loads.push(id);
      return answer.promise;
    });
    expect(useClinicStore.getState().loading).toBe(true);
    expect(loads).toEqual([1]);

    answer.resolve(clinic(1));
    await done;
    const state = useClinicStore.getState();
    expect(state.loading).toBe(false);
    expect(state.clinic?.id).toBe(1);
    expect(state.caregivers).toHaveLength(2);
    expect(state.appointmentTypes).toHaveLength(2);
    expect(state.isAcceptNewPatients).toBe(true);
  });

  it('takes accept-new-patients from the settings', async () => {
    await useClinicStore.getState().selectClinic(2, async () => clinic(2, false));
    expect(useClinicStore.getState().isAcceptNewPatients).toBe(false);
  });

  it('only the latest selection lands', async () => {
    const first = deferred<ClinicData>();
    const second = deferred<ClinicData>();
    const { selectClinic } = useClinicStore.getState();
    const a = selectClinic(1, () => first.promise);
    const b = selectClinic(2, () => second.promise);
    second.resolve(clinic(2));
    await b;
    first.resolve(clinic(1));
    await a;
    expect(useClinicStore.getState().clinic?.id).toBe(2);
  });

  it('a failed load leaves no clinic and rejects', async () => {
    useClinicStore.getState().setClinicData(clinic(1));
    const error = new Error('offline');
    await expect(
      useClinicStore.getState().selectClinic(2, () => Promise.reject(error)),
    ).rejects.toBe(error);
    const state = useClinicStore.getState();
    expect(state.clinic).toBeNull();
    expect(state.loading).toBe(false);
  });

  it('setClinicData stores data fetched elsewhere', () => {
    useClinicStore.getState().setClinicData(clinic(3, false));
    const state = useClinicStore.getState();
    expect(state.clinic?.id).toBe(3);
    expect(state.isAcceptNewPatients).toBe(false);
    expect(state.loading).toBe(false);
  });
});
