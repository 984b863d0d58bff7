import { describe, expect, it } from 'vitest';
import { changesOf } from './correct-dialog';

const noa = {
  id: 1,
  id_number: '039845128',
  first_name: 'נועה',
  last_name: 'כהן',
  phone: '0527000001',
};

describe('the correction sent', () => {
  it('is nothing when nothing differs, whatever the spelling of the same phone', () => {
    expect(
      changesOf(noa, { first_name: 'נועה ', last_name: 'כהן', phone: '052-7000001' }),
    ).toBeNull();
    expect(
      changesOf(noa, { first_name: 'נועה', last_name: 'כהן', phone: '+972 52 700 0001' }),
    ).toBeNull();
  });

  it('holds only the fields that changed', () => {
    expect(changesOf(noa, { first_name: 'נעמה', last_name: 'כהן', phone: '052-7000001' })).toEqual({
      first_name: 'נעמה',
    });
    expect(changesOf(noa, { first_name: 'נועה', last_name: 'לוי', phone: '054-1234567' })).toEqual({
      last_name: 'לוי',
      phone: '054-1234567',
    });
    // A name emptied is sent, for the server (and the form's check) to refuse at the field.
    expect(changesOf(noa, { first_name: '', last_name: 'כהן', phone: '0527000001' })).toEqual({
      first_name: '',
    });
  });
});
