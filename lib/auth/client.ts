// The part of lib/auth that client components may import: no Node or database code here,
// so a browser bundle never pulls in sessions or password hashing (index.ts is the server's).
export { safeNextPath } from './safe-next';
