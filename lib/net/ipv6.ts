// IPv6 addresses as numbers: the webhook guard reads an address's ranges from them
// (lib/webhooks/address.ts) and the stream slots count a client by its /64 (lib/live/stream-slots.ts).

/** The eight 16-bit groups of an IPv6 address (input already validated by isIP); a zone id is ignored. */
export function ipv6Groups(addr: string): number[] {
  let a = addr.split('%')[0]!;
  // An embedded IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) stands for the last two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (v4) {
    const b = v4[1]!.split('.').map(Number);
    a = a.slice(0, -v4[1]!.length) + `${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const [head, tail] = a.includes('::') ? a.split('::') : [a, undefined];
  const h = head ? head.split(':') : [];
  const t = tail === undefined ? [] : tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array<string>(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((x) => parseInt(x, 16));
}
