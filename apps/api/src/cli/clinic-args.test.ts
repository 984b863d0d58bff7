import { describe, expect, it } from 'vitest';
import { UsageError } from './args.js';
import { parseCreateClinicArgs, parseCreateKeyArgs, parseRevokeKeyArgs } from './clinic-args.js';

const clinicArgs = [
  '--name',
  'מרפאת השיניים',
  '--phone=03-5551234',
  '--street',
  'הרצל',
  '--home-number',
  '12',
  '--city',
  'תל אביב-יפו',
];

const usageError = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a usage error');
};

describe('create-clinic arguments', () => {
  it('reads every option, in either spelling', () => {
    expect(parseCreateClinicArgs([...clinicArgs, '--timezone=Europe/London'])).toEqual({
      name: 'מרפאת השיניים',
      phone: '03-5551234',
      street: 'הרצל',
      homeNumber: '12',
      city: 'תל אביב-יפו',
      timezone: 'Europe/London',
    });
  });

  it('leaves the time zone to the default when not given, and trims text', () => {
    const parsed = parseCreateClinicArgs(['--name', '  מרפאה  ', ...clinicArgs.slice(2)]);
    expect(parsed).toMatchObject({ name: 'מרפאה' });
    expect(parsed).not.toHaveProperty('timezone');
  });

  it.each([
    [clinicArgs.slice(2), '--name <text> is required'],
    [clinicArgs.slice(0, 7), '--city <text> is required'],
    [[...clinicArgs, '--timezone', 'Mars/Olympus'], '--timezone: unknown time zone "Mars/Olympus"'],
    [[...clinicArgs, '--timezone', '+03:00'], '--timezone: unknown time zone'],
    [['--phone', 'call us', ...clinicArgs.slice(0, 2), ...clinicArgs.slice(3)], '--phone:'],
    [['--name', ' ', ...clinicArgs.slice(2)], '--name: Must not be empty'],
    [['--name', '--phone', '03-5551234'], '--name needs a value'],
    [[...clinicArgs, '--email', 'a@b.c'], 'unknown argument "--email"'],
    [[...clinicArgs, '--city'], '--city needs a value'],
  ])('refuses %j', (args, message) => {
    expect(usageError(() => parseCreateClinicArgs(args))).toContain(message);
  });

  it('answers help for --help', () => {
    expect(parseCreateClinicArgs(['--name', 'x', '--help'])).toBe('help');
  });
});

describe('create-key arguments', () => {
  it('reads the clinic and the name, "default" when none', () => {
    expect(parseCreateKeyArgs(['--clinic', '7', '--name', 'PMS production'])).toEqual({
      clinicId: 7,
      name: 'PMS production',
    });
    expect(parseCreateKeyArgs(['--clinic=7'])).toEqual({ clinicId: 7, name: 'default' });
    expect(parseCreateKeyArgs(['-h'])).toBe('help');
  });

  it.each([
    [[], '--clinic <id> is required'],
    [['--clinic', 'one'], '--clinic needs a whole number'],
    [['--clinic', '0'], '--clinic needs a whole number'],
    [['--clinic', '1', '--name', ' '], '--name: 1 to 100 characters'],
    [['--clinic', '1', '--name', 'x'.repeat(101)], '--name: 1 to 100 characters'],
    [['--clinic', '1', '--key-id', '2'], 'unknown argument "--key-id"'],
  ])('refuses %j', (args, message) => {
    expect(usageError(() => parseCreateKeyArgs(args))).toContain(message);
  });
});

describe('revoke-key arguments', () => {
  it('reads the clinic and the key', () => {
    expect(parseRevokeKeyArgs(['--clinic', '7', '--key-id=12'])).toEqual({
      clinicId: 7,
      keyId: 12,
    });
    expect(parseRevokeKeyArgs(['--help'])).toBe('help');
  });

  it.each([
    [['--clinic', '7'], '--key-id <id> is required'],
    [['--key-id', '7'], '--clinic <id> is required'],
    [['--clinic', '7', '--key-id', '2147483648'], '--key-id needs a whole number'],
    [['--clinic', '7', '--key-id', 'mrp_abc'], '--key-id needs a whole number'],
  ])('refuses %j', (args, message) => {
    expect(usageError(() => parseRevokeKeyArgs(args))).toContain(message);
  });
});
