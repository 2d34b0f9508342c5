// The operator's management of the installation's stores (docs/architecture.md#data).
export { createStoreWithInvite, operatorStores, suspendStore, inviteTokenHash, INVITE_TTL_MS, type OperatorStoreView } from './stores';
export { openInvite, takeInviteWithAccount, acceptInvite, type OpenInvite } from './invites';
export { signUp } from './signup';
