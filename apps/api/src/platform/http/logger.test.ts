import { describe, expect, it } from 'vitest';
import { loggableUrl } from './logger.js';

describe('loggableUrl', () => {
  it('drops query strings and link tokens', () => {
    expect(loggableUrl('/api/health?x=1')).toBe('/api/health');
    expect(loggableUrl('/q/s3cr3t-token')).toBe('/q/[token]');
    expect(loggableUrl('/p/s3cr3t/extra?Response=000')).toBe('/p/[token]/extra');
    expect(loggableUrl('/clinic/1')).toBe('/clinic/1');
  });
});
