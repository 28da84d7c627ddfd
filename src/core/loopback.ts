const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost|\[::1\])$/i;

/** True for a loopback host name or address (`127.0.0.1`, `localhost`, `::1`, an IPv4-mapped `::ffff:127.0.0.1`). */
export function isLoopback(host: string): boolean {
  return LOOPBACK.test(host.replace(/^(\[?)::ffff:(?=127\.)/i, '$1').replace(/^\[(127\.[\d.]+)\]$/, '$1'));
}

/** True when `url` names a loopback host: a local server, which may need no API key. */
export function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopback(new URL(url).hostname);
  } catch {
    return false;
  }
}
