export * from './errors.js';
export * from './clinic.js';
