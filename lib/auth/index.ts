export { SCOPES, type Scope, type Need, keyScopeOf } from './scopes';
export {
  BOOTSTRAP_KEY_ID,
  hashApiKey,
  bearerToken,
  createApiKey,
  revokeApiKey,
  ensureBootstrapKey,
  authenticateApiKey,
  hasScope,
} from './api-keys';
export { ROLES, type Role, isRole, roleScopes, sessionNeeds, sessionScopes, seesOnlyOwnSales, roleAtLeast } from './roles';
export {
  SESSION_COOKIE,
  CSRF_HEADER,
  type SessionUser,
  createSession,
  sessionUser,
  destroySession,
  destroyUserSessions,
  csrfMatches,
  cookieValue,
  sessionCookie,
  clearedSessionCookie,
} from './sessions';
export {
  MIN_PASSWORD_LENGTH,
  MAX_PASSWORD_LENGTH,
  Semaphore,
  scryptSlots,
  passwordProblem,
  hashPassword,
  verifyPassword,
} from './passwords';
export {
  AccountError,
  type PublicUser,
  normaliseEmail,
  userCount,
  createUser,
  addExistingMember,
  isOperator,
  ensureAdminUser,
  claimOperator,
  authenticateUser,
  issueSetupCode,
  SETUP_CODE_SHARED_MS,
  completeSetup,
  listUsers,
} from './accounts';
export { TILL_COOKIE, tillMarker, tillCookie, clearedTillCookie } from './till-marker';
export { safeNextPath } from './safe-next';
export { TERMINAL_COOKIE, type ActiveTerminal, createTerminal, terminalForToken, requestTerminal, terminalCookie } from './terminals';
export { MAX_PIN_LENGTH, pinProblem, hashPin, verifyPin } from './pins';
export { userStores, switchSessionStore } from './store-membership';
export { signInThrottle, accountKey, clientKeyOf } from './sign-in-throttle';
