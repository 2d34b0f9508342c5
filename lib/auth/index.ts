export * from './scopes';
export * from './api-keys';
