import { describe, expect, it } from 'vitest';
import { addressKey } from './client-address.js';

describe('addressKey', () => {
  it('keeps an IPv4 address, also written IPv4-mapped', () => {
    expect(addressKey('192.0.2.17')).toBe('192.0.2.17');
    expect(addressKey('::ffff:192.0.2.17')).toBe('192.0.2.17');
    expect(addressKey('::FFFF:192.0.2.17')).toBe('192.0.2.17');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const key = '2001:db8:85a3:1::/64';
    expect(addressKey('2001:db8:85a3:1::1')).toBe(key);
    expect(addressKey('2001:0db8:85a3:0001:ffff:ffff:ffff:fffe')).toBe(key);
    expect(addressKey('2001:DB8:85A3:1:0:0:0:9')).toBe(key);
    expect(addressKey('2001:db8:85a3:1::1%eth0')).toBe(key);
    expect(addressKey('2001:db8:85a3:2::1')).toBe('2001:db8:85a3:2::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1')).toBe('fe80:0:0:0::/64');
    expect(addressKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(addressKey('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('passes anything else through', () => {
    expect(addressKey('unknown')).toBe('unknown');
  });
});
