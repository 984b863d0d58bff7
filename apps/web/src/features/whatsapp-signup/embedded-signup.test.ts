import { describe, expect, it } from 'vitest';
import { isMetaOrigin, parseSignupMessage } from './embedded-signup';

const finish = JSON.stringify({
  type: 'WA_EMBEDDED_SIGNUP',
  event: 'FINISH',
  data: { phone_number_id: '106540352242922', waba_id: '102290129340398', business_id: '5550001' },
});

describe('isMetaOrigin', () => {
  it("takes Meta's two origins exactly", () => {
    expect(isMetaOrigin('https://www.facebook.com')).toBe(true);
    expect(isMetaOrigin('https://web.facebook.com')).toBe(true);
  });

  it.each([
    'http://www.facebook.com',
    'https://facebook.com',
    'https://staticxx.facebook.com',
    'https://www.facebook.com.evil.example',
    'https://evilfacebook.com',
    'https://www.facebook.com:8443',
    'null',
    '',
  ])('refuses %s', (origin) => {
    expect(isMetaOrigin(origin)).toBe(false);
  });
});

describe('parseSignupMessage', () => {
  it('reads the ids of a FINISH message from Meta', () => {
    expect(parseSignupMessage({ origin: 'https://web.facebook.com', data: finish })).toEqual({
      event: 'finish',
      phoneNumberId: '106540352242922',
      wabaId: '102290129340398',
      businessId: '5550001',
    });
  });

  it('ignores the same message from any other origin', () => {
    expect(parseSignupMessage({ origin: 'https://evil.example', data: finish })).toBeNull();
    expect(parseSignupMessage({ origin: window.location.origin, data: finish })).toBeNull();
  });

  it('reads CANCEL and ERROR', () => {
    const origin = 'https://www.facebook.com';
    const message = (event: string) =>
      JSON.stringify({ type: 'WA_EMBEDDED_SIGNUP', event, data: { current_step: 'PHONE' } });
    expect(parseSignupMessage({ origin, data: message('CANCEL') })).toEqual({ event: 'cancel' });
    expect(parseSignupMessage({ origin, data: message('ERROR') })).toEqual({ event: 'error' });
  });

  it.each([
    ['an object, not JSON text', JSON.parse(finish) as unknown],
    ['text that is not JSON', 'cb=f1234&type=resize'],
    ['JSON null', 'null'],
    ['another type', finish.replace('WA_EMBEDDED_SIGNUP', 'OTHER')],
    ['another FINISH flavour', finish.replace('"FINISH"', '"FINISH_ONLY_WABA"')],
    ['a missing id', finish.replace(',"business_id":"5550001"', '')],
    ['an id that is not numeric', finish.replace('102290129340398', '1022<script>')],
    ['no data', JSON.stringify({ type: 'WA_EMBEDDED_SIGNUP', event: 'FINISH' })],
  ])('ignores %s', (_what, data) => {
    expect(parseSignupMessage({ origin: 'https://www.facebook.com', data })).toBeNull();
  });
});
