import { describe, expect, it } from 'vitest';
import {
  isLinkTokenPath,
  matchPagePath,
  pagePath,
  patientPage,
  patientPageAt,
  patientPageIds,
} from './patient-pages.js';

describe('matchPagePath', () => {
  it('matches as the router does: one segment a parameter, optional ones, any case, a trailing slash', () => {
    const clinic = '/clinic/:clinicId/:clinicName?';
    expect(matchPagePath(clinic, '/clinic/12')).toEqual({ clinicId: '12' });
    expect(matchPagePath(clinic, '/Clinic/12/%D7%9C%D7%91/')).toEqual({
      clinicId: '12',
      clinicName: 'לב',
    });
    expect(matchPagePath(clinic, '/clinic')).toBeNull();
    expect(matchPagePath(clinic, '/clinic/12/a/b')).toBeNull();
    expect(matchPagePath('/', '/')).toEqual({});
    expect(matchPagePath('/', '/privacy')).toBeNull();
    expect(matchPagePath('/privacy', '/')).toBeNull();
  });

  it('does not match a parameter that does not decode', () => {
    expect(matchPagePath('/p/:token', '/p/%E0%A4%A')).toBeNull();
  });
});

describe('pagePath', () => {
  it('fills in the parameters, encoded, and leaves out optional ones not given', () => {
    expect(pagePath('/clinic/:clinicId/:clinicName?', { clinicId: 5 })).toBe('/clinic/5');
    expect(pagePath('/q/:token', { token: 'a/b' })).toBe('/q/a%2Fb');
    expect(() => pagePath('/q/:token', {})).toThrow(':token');
  });
});

describe('the patient pages', () => {
  it('each address finds its own page, and a booking confirmation is not a booking page', () => {
    for (const id of patientPageIds) {
      const path = pagePath(patientPage(id).path, { clinicId: 7, token: 'tok', clientId: 'c' });
      expect(patientPageAt(path)?.id).toBe(id);
    }
    expect(patientPageAt('/booking/7/confirmation')?.id).toBe('booking-confirmation-page');
    expect(patientPageAt('/nowhere')).toBeNull();
  });

  it('a page rendered as another renders as one the server renders with the same data', () => {
    for (const id of patientPageIds) {
      const { html } = patientPage(id);
      if (html.from !== 'server' || !html.rendersAs) continue;
      const target = patientPage(html.rendersAs).html;
      expect(target).toEqual(expect.objectContaining({ from: 'server', data: html.data }));
    }
  });

  it('knows a link token address by its first segment, whatever follows', () => {
    expect(isLinkTokenPath('/q/tok')).toBe(true);
    expect(isLinkTokenPath('/tranzila/tok/extra')).toBe(true);
    expect(isLinkTokenPath('/whatsapp-signup')).toBe(true);
    expect(isLinkTokenPath('/whatsapp-signup?client=1')).toBe(true);
    expect(isLinkTokenPath('/clinic/1')).toBe(false);
    expect(isLinkTokenPath('/')).toBe(false);
    expect(isLinkTokenPath('/privacy')).toBe(false);
  });
});
