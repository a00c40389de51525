/**
 * The address a request is counted under, for the contact form's limits and the beacons' daily count:
 * CloudFront's CloudFront-Viewer-Address behind a verified CloudFront, else the connection's own.
 */
import { isIP } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { API_REQUEST_HEADERS } from '../../contract/api-headers';
import { getHeader } from './http';

/** The one address every request without a readable viewer address is counted under together. */
export const UNKNOWN_ADDRESS = 'unknown';

/**
 * The address a request is counted under for the per-address limit. Behind a verified CloudFront
 * (`viaCloudFront`: the origin header matched) that is CloudFront-Viewer-Address: CloudFront sets it
 * from the connection itself, and a request that skipped CloudFront was already refused. Otherwise
 * (the local stack) it is API Gateway's sourceIp, the connection's own address. IPv6 addresses are
 * counted by their /64, the block one subscriber is usually given, so a bot cannot step through it.
 * A request whose address is missing or unreadable is counted too, all of them under UNKNOWN_ADDRESS:
 * leaving the header out never skips the count.
 */
export function limitAddress(event: APIGatewayProxyEventV2, viaCloudFront: boolean): string {
  const ip = viaCloudFront
    ? viewerAddressIp(getHeader(event, API_REQUEST_HEADERS.viewerAddress))
    : (() => {
        const raw: unknown = event?.requestContext?.http?.sourceIp;
        return typeof raw === 'string' && isIP(raw) !== 0 ? raw : undefined;
      })();
  if (!ip) return UNKNOWN_ADDRESS;
  const mapped = /^::ffff:(.+)$/i.exec(ip)?.[1];
  if (mapped && isIP(mapped) === 4) return mapped;
  return isIP(ip) === 6 ? ipv6Prefix64(ip) : ip;
}

/** The first four groups of an IPv6 address, expanded: "2001:db8::1" → "2001:db8:0:0::/64". */
export function ipv6Prefix64(ip: string): string {
  const [head = '', tail] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** The IP of a CloudFront-Viewer-Address value ("ip:port", "[v6]:port"); undefined when unreadable. */
export function viewerAddressIp(value: string | undefined): string | undefined {
  if (!value || value.length > 64) return undefined;
  // "[v6]:port" or "v4:port"; anything else (no port, no closing bracket) is unreadable.
  const ip = value.startsWith('[') ? /^\[([^\]]+)\]:\d+$/.exec(value)?.[1] : /^([^:]+):\d+$/.exec(value)?.[1];
  if (!ip) return undefined;
  return isIP(ip) !== 0 ? ip : undefined;
}
