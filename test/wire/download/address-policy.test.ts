import { describe, expect, it } from 'vitest';
import {
  addressRefusal,
  classifyAddress,
  hostRefusal,
  ipv6Groups,
  isLocalName,
  writtenHost,
} from '../../../src/wire/download/address-policy.js';

describe('classifyAddress', () => {
  it.each([
    // IPv4
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['192.0.0.8', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    // IPv6
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'reserved'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001::1', 'reserved'],
    ['100::1', 'reserved'],
    ['64:ff9b:1::1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'loopback'],
    ['::8.8.8.8', 'reserved'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:0808:0808::1', 'public'],
    ['2606:4700::1111', 'public'],
    ['2a00:1450:4001::200e', 'public'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('is undefined for a name', () => {
    expect(classifyAddress('example.com')).toBeUndefined();
  });

  it('expands :: and embedded dotted quads into eight groups', () => {
    expect(ipv6Groups('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(ipv6Groups('1::2')).toEqual([1, 0, 0, 0, 0, 0, 0, 2]);
  });
});

describe('hostRefusal', () => {
  const judge = (text: string) => hostRefusal(new URL(text), writtenHost(text));

  it.each([
    ['http://localhost/x', 'local-name'],
    ['http://LOCALHOST./x', 'local-name'],
    ['http://app.localhost/x', 'local-name'],
    ['http://printer.local/x', 'local-name'],
    ['http://metadata.google.internal/x', 'local-name'],
    ['http://127.0.0.1:8080/x', 'loopback'],
    ['http://[::1]/x', 'loopback'],
    ['http://[::ffff:127.0.0.1]/x', 'loopback'],
    ['http://[fd00::1]/x', 'unique-local'],
    ['http://169.254.169.254/latest', 'link-local'],
    ['http://0x7f.1/x', 'non-canonical-number'],
    ['http://2130706433/x', 'non-canonical-number'],
    ['http://0177.0.0.1/x', 'non-canonical-number'],
    ['http://0x08.0x08.0x08.0x08/x', 'non-canonical-number'],
    ['http://127.1/x', 'non-canonical-number'],
  ])('%s is refused as %s', (url, expected) => {
    expect(judge(url)).toBe(expected);
  });

  it.each([
    'https://example.com/a.png',
    'http://8.8.8.8/x',
    'https://[2606:4700::1111]/x',
    'https://files.example.org:8443/x',
  ])('%s passes (names are resolved and checked later)', (url) => {
    expect(judge(url)).toBeUndefined();
  });
});

describe('addressRefusal and isLocalName', () => {
  it('refuses every resolved address that is not public, and anything that is not an address', () => {
    expect(addressRefusal('127.0.0.1')).toBe('loopback');
    expect(addressRefusal('not an address')).toBe('reserved');
    expect(addressRefusal('93.184.216.34')).toBeUndefined();
  });

  it('knows the special-use names and nothing more', () => {
    expect(['localhost', 'a.localhost', 'x.local', 'y.internal'].map(isLocalName)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['localhost.com', 'internal.example', 'locals'].map(isLocalName)).toEqual([
      false,
      false,
      false,
    ]);
  });
});
