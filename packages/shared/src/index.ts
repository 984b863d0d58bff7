export * from './errors.js';
export * from './clinic.js';
export * from './availability.js';
