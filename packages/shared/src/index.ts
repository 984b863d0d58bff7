export * from './errors.js';
export * from './clinic.js';
export * from './availability.js';
export * from './identity.js';
export * from './patient-auth.js';
export * from './dev.js';
export * from './appointments.js';
