export * from './error-codes.js';
export * from './health.js';
