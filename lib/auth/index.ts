export * from './scopes';
export * from './api-keys';
export * from './roles';
export * from './sessions';
export * from './passwords';
export * from './accounts';
export * from './till-marker';
export * from './safe-next';
