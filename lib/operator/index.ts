// The operator's management of the installation's stores (docs/architecture.md#data).
export { createStoreWithInvite, operatorStores, suspendStore, INVITE_TTL_MS } from './stores';
export { openInvite, takeInviteWithAccount, acceptInvite } from './invites';
export { signUp } from './signup';
