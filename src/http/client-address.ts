import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key a client's address is counted under by the per-address limits (requests without a
 * token, failed logins, password checks, shared page views): an IPv4 address as it is (also
 * when written IPv4-mapped, `::ffff:192.0.2.1`), an IPv6 address by its /64 network. One
 * subscriber is given a whole /64 (or more) and may send from any address in it, so counting
 * single IPv6 addresses would give one client 2^64 budgets, and let it push others' counts out
 * of the bounded tables.
 */
export function addressKey(ip: string): string {
  const address = ip.split('%')[0] ?? ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] !== undefined) return mapped[1];
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, in lower-case hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  let text = address.toLowerCase();
  // A dotted IPv4 tail (`64:ff9b::192.0.2.1`) is the last two groups.
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (tail !== undefined && isIPv4(tail)) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number);
    text = `${text.slice(0, -tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const zeros =
    rest === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16).toString(16));
}
