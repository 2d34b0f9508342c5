// The part of lib/connect that client components may import: pure code only, so the till's
// browser bundle never pulls in the envelope signing and its curve library (index.ts is the
// server's surface; docs/architecture.md#layers).
export { needsConnectWallet, preferredQrForm, type QrForm } from './qr-form';
