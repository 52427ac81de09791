/** Where the page's script and stylesheet are, as the webview may load them, and the nonce of this load. */
export interface PageResources {
  scriptUri: string;
  styleUri: string;
  /** The webview's own origin for resources (`webview.cspSource`). */
  cspSource: string;
  nonce: string;
}

function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The page's whole HTML: a strict CSP, one nonce'd script, one stylesheet, nothing inline, nothing remote. */
export function renderHtml({ scriptUri, styleUri, cspSource, nonce }: PageResources): string {
  if (!/^[A-Za-z0-9+/=_-]{16,}$/.test(nonce)) throw new Error('a nonce must be at least 16 base64 characters');
  const csp = [`default-src 'none'`, `script-src 'nonce-${nonce}'`, `style-src ${cspSource}`, `img-src ${cspSource} data:`].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attribute(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attribute(styleUri)}">
<title>What if the control plane dies?</title>
</head>
<body>
<main id="app" aria-label="Control-plane failure simulation"></main>
<script nonce="${nonce}" src="${attribute(scriptUri)}"></script>
</body>
</html>
`;
}
