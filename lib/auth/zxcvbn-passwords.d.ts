// The frequency-ranked password list inside @zxcvbn-ts/language-common (lib/auth/common-passwords.ts).
declare module '@zxcvbn-ts/language-common/dist/passwords.json.mjs' {
  const passwords: string[];
  export default passwords;
}
