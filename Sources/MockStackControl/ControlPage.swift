/// The page for people at `GET /__mockstack/`: the apps with their operations or services (and
/// links to `/types/metadata` and `/types/swift`), the stubs with their hits and near misses,
/// the sessions, the requests no app or stub took (with the routes they may have meant), and
/// the request journal live, newest first, each entry expandable to its request and response,
/// filtered by app; a delayed answer's duration counts its delay. It reads the control plane's
/// own endpoints relative to where it is served, so under `/__session/{id}/__mockstack/` it
/// shows that session only.
enum ControlPage {
    /// The page with `initial` — what its first poll would fetch, endpoint by endpoint — in it,
    /// so that it shows the journal as soon as it loads; nil for a page that polls first (a
    /// request that may not see the data). No external assets (inline CSS and script).
    static func html(initial: [(key: String, json: [UInt8])]?) -> [UInt8] {
        guard let initial else { return page }
        var bytes = Array(page[..<marker])
        bytes += Array(#"<script id="initial" type="application/json">{"#.utf8)
        for (index, member) in initial.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += Array("\"\(member.key)\":".utf8)
            // `<` stands only inside JSON strings, where `\u003c` means the same: no `</script>`
            // or `<!--` in a body the journal kept can end the element early.
            for byte in member.json {
                if byte == UInt8(ascii: "<") { bytes += Array(#"\u003c"#.utf8) } else { bytes.append(byte) }
            }
        }
        bytes += Array("}</script>\n".utf8)
        bytes += page[marker...]
        return bytes
    }

    /// What the page embeds for its first render: the endpoints its first poll reads, and the
    /// member of the initial data each goes in (a session's page has no `sessions`).
    static let initialEndpoints: [(key: String, endpoint: String)] = [
        ("apps", "apps"), ("stubs", "stubs"), ("unmatched", "requests/unmatched?limit=20"), ("sessions", "sessions"),
        ("sockets", "sockets"), ("requests", "requests?limit=500"),
    ]

    /// Where the initial data goes: just before the page's script.
    private static let marker = page.firstRange(of: Array("<script>\n".utf8))!.lowerBound

    private static let page: [UInt8] = Array(
        #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>mockstack</title>
        <link rel="icon" href="data:,">
        <style>
        :root { --bg:#f6f7f9; --panel:#fff; --fg:#1d2330; --dim:#6b7385; --line:#e2e5ea; --accent:#2f5fd0; --hover:#f0f4fc;
          --ok:#1a7f37; --redir:#0969da; --warn:#9a6700; --err:#cf222e; --badge:#eef1f6; }
        @media (prefers-color-scheme: dark) { :root { --bg:#14171c; --panel:#1c2027; --fg:#e3e7ee; --dim:#8d95a5; --line:#2c323c;
          --accent:#7aa2ff; --hover:#232a35; --ok:#4ac26b; --redir:#58a6ff; --warn:#d4a72c; --err:#ff7b72; --badge:#2a303a; } }
        * { box-sizing: border-box; }
        body { margin:0; background:var(--bg); color:var(--fg); font:13px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
        code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size:12px; }
        a { color:var(--accent); text-decoration:none; } a:hover { text-decoration:underline; }
        header { position:sticky; top:0; z-index:5; display:flex; align-items:center; gap:14px; padding:8px 16px;
          background:var(--panel); border-bottom:1px solid var(--line); }
        header h1 { margin:0; font-size:17px; letter-spacing:.3px; }
        header .info { color:var(--dim); flex:1; }
        .pill { padding:2px 9px; border-radius:10px; font-size:12px; background:var(--badge); }
        .pill.live { color:var(--ok); } .pill.down { color:#fff; background:var(--err); } .pill.paused { color:var(--warn); }
        main { display:grid; grid-template-columns:minmax(240px, 320px) minmax(0, 1fr); gap:14px; padding:14px 16px; align-items:start; }
        .side { display:grid; gap:14px; min-width:0; }
        .item { padding:6px 12px; border-bottom:1px solid var(--line); overflow-wrap:anywhere; } .item:last-child { border-bottom:0; }
        .item ul { margin:2px 0 0; padding-left:16px; } .item li { color:var(--dim); }
        @media (max-width: 900px) { main { grid-template-columns:1fr; } }
        section { background:var(--panel); border:1px solid var(--line); border-radius:6px; min-width:0; }
        section > h2 { display:flex; align-items:center; gap:8px; flex-wrap:wrap; margin:0; padding:8px 12px; font-size:14px; border-bottom:1px solid var(--line); }
        section > h2 .grow { flex:1; }
        .app { padding:8px 12px; border-bottom:1px solid var(--line); } .app:last-child { border-bottom:0; }
        .app-head { display:flex; gap:6px; align-items:baseline; flex-wrap:wrap; }
        .badge { display:inline-block; padding:0 6px; border-radius:3px; background:var(--badge); font-size:11px; color:var(--dim); white-space:nowrap; }
        .badge.fault { background:var(--err); color:#fff; } .badge.slow { color:var(--warn); } .badge.stub { color:var(--accent); }
        .links { margin-top:2px; font-size:12px; } .links a { margin-right:10px; }
        details > summary { cursor:pointer; color:var(--dim); margin-top:4px; }
        table { border-collapse:collapse; width:100%; }
        .routes-box { max-height:60vh; overflow:auto; } .routes td { padding:1px 6px 1px 0; vertical-align:top; } .routes td:first-child { font-weight:500; }
        .controls { font-weight:normal; display:flex; gap:6px; align-items:center; }
        select, input, button { font:inherit; font-size:12px; padding:2px 6px; border:1px solid var(--line); border-radius:4px; background:var(--panel); color:var(--fg); }
        button { cursor:pointer; } button:hover { background:var(--hover); }
        .count { color:var(--dim); font-weight:normal; font-size:12px; }
        .journal th { text-align:left; font-weight:600; color:var(--dim); font-size:11px; padding:4px 8px; border-bottom:1px solid var(--line); }
        .journal td { padding:3px 8px; border-bottom:1px solid var(--line); white-space:nowrap; vertical-align:top; }
        tr.entry { cursor:pointer; } tr.entry:hover, tr.entry.open { background:var(--hover); }
        td.path { width:100%; white-space:normal; overflow-wrap:anywhere; } td.wrap { white-space:normal; }
        td.op .badge { margin:1px 0 1px 4px; } td.op .badge:first-child { margin-left:0; } .dim { color:var(--dim); }
        .method { font-weight:600; } .s2 { color:var(--ok); } .s3 { color:var(--redir); } .s4 { color:var(--warn); } .s5, .s0 { color:var(--err); }
        .status { font-weight:600; }
        tr.detail > td { white-space:normal; background:var(--bg); padding:10px 12px; }
        .panes { display:grid; grid-template-columns:1fr 1fr; gap:12px; } .panes > div { min-width:0; }
        .panes h3 { margin:0 0 4px; font-size:12px; } .panes h4 { margin:8px 0 2px; font-size:11px; color:var(--dim); font-weight:600; }
        .kv td { padding:0 8px 0 0; vertical-align:top; word-break:break-all; } .kv td:first-child { color:var(--dim); white-space:nowrap; word-break:normal; }
        pre { margin:0; padding:6px 8px; background:var(--panel); border:1px solid var(--line); border-radius:4px; max-height:360px; overflow:auto; white-space:pre-wrap; word-break:break-all; }
        .note { color:var(--warn); font-size:11px; }
        .empty { padding:18px 12px; color:var(--dim); }
        </style>
        </head>
        <body>
        <header>
          <h1>mockstack</h1>
          <span class="info" id="server-info"></span>
          <span class="pill" id="status">connecting…</span>
        </header>
        <main>
          <div class="side">
          <section>
            <h2>Apps <span class="count" id="app-count"></span></h2>
            <div id="apps"><div class="empty">Loading…</div></div>
          </section>
          <section>
            <h2>Stubs <span class="count" id="stub-count"></span></h2>
            <div id="stubs"><div class="empty">No stubs.</div></div>
          </section>
          <section id="sessions-section">
            <h2>Sessions <span class="count" id="session-count"></span></h2>
            <div id="sessions"><div class="empty">No sessions.</div></div>
          </section>
          <section>
            <h2>Sockets <span class="count" id="socket-count"></span></h2>
            <div id="sockets"><div class="empty">No sockets.</div></div>
          </section>
          <section>
            <h2>Unmatched <span class="count" id="unmatched-count"></span></h2>
            <div id="unmatched"><div class="empty">Every request reached an app or a stub.</div></div>
          </section>
          </div>
          <section>
            <h2>Journal <span class="count" id="count"></span><span class="grow"></span>
              <span class="controls">
                <select id="app-filter" title="Show one app's requests"><option value="">all apps</option></select>
                <input id="text-filter" type="search" placeholder="filter path, operation, status" size="24">
                <button id="pause" type="button">Pause</button>
                <button id="clear" type="button" title="DELETE requests: empty the server's journal">Clear</button>
              </span>
            </h2>
            <table class="journal">
              <thead><tr><th>Time</th><th>App</th><th>Method</th><th>Path</th><th>Status</th><th>Operation</th><th>Duration</th></tr></thead>
              <tbody id="journal"></tbody>
            </table>
            <div class="empty" id="journal-empty">No requests yet: requests to any app appear here as they arrive.</div>
          </section>
        </main>
        <script>
        "use strict";
        const base = location.pathname.endsWith('/') ? location.pathname : location.pathname + '/';
        const cut = base.lastIndexOf('__mockstack/');
        const root = cut >= 0 ? base.slice(0, cut) : '/';
        const session = (root.match(/\/__session\/([^/]+)\/$/) || [])[1];
        // Off loopback the control plane wants the admin token. The page takes it from its URL's
        // fragment (#token=…), which a browser never sends to a server or writes to a log.
        const token = new URLSearchParams(location.hash.slice(1)).get('token');
        const api = (path, init = {}) =>
          fetch(base + path, { cache: 'no-store', ...init, headers: token ? { 'X-MockStack-Admin-Token': token } : {} });
        const MAX_KEPT = 1000, MAX_ROWS = 500, COLUMNS = 7;
        const $ = id => document.getElementById(id);
        let entries = [], lastId = 0, dropped = 0, paused = false, needApps = true, resync = false;
        const knownApps = new Set();

        // Builds an element; strings become text nodes, so nothing is ever parsed as HTML.
        function h(tag, attrs, ...children) {
          const el = document.createElement(tag);
          for (const [k, v] of Object.entries(attrs || {})) {
            if (v == null || v === false) continue;
            if (k === 'class') el.className = v; else if (k.startsWith('on')) el.addEventListener(k.slice(2), v); else el.setAttribute(k, v);
          }
          for (const c of children.flat()) if (c != null && c !== false) el.append(c instanceof Node ? c : String(c));
          return el;
        }
        const pad = (n, w = 2) => String(n).padStart(w, '0');
        function clock(iso) {
          const d = new Date(iso);
          return isNaN(d) ? String(iso) : `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
        }
        function bytes(n) { return n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`; }
        const plural = (n, noun) => `${n} ${noun}${n === 1 ? '' : 's'}`;
        function setStatus(text, cls) { const s = $('status'); s.textContent = text; s.className = 'pill ' + (cls || ''); }

        $('server-info').textContent = `${location.host} · ${session ? 'session ' + session : 'whole server'}`;

        // ---- Apps ----
        async function loadApps() {
          const r = await api('apps');
          if (r.status === 401) throw new Error('this server wants its admin token: open the page as /__mockstack/#token=…');
          if (!r.ok) throw new Error('apps: HTTP ' + r.status);
          showApps((await r.json()).apps || []);
        }
        function showApps(apps) {
          needApps = false;
          $('app-count').textContent = `(${apps.length})`;
          $('apps').replaceChildren(...(apps.length ? apps.map(renderApp) : [h('div', { class: 'empty' }, 'No apps loaded.')]));
          apps.forEach(a => addAppOption(a.name));
        }
        function renderApp(app) {
          const mount = app.mount || '/';
          const at = root + mount.replace(/^\/+/, '');
          const slash = at.endsWith('/') ? at : at + '/';
          const routes = app.routes || [];
          const noun = app.kind === 'servicestack' ? 'operation' : app.kind === 'feathers' ? 'service' : 'route';
          return h('div', { class: 'app', 'data-app': app.name },
            h('div', { class: 'app-head' }, h('b', null, app.name), h('span', { class: 'badge' }, app.kind),
              h('a', { class: 'mono', href: at }, mount),
              app.exposedPort != null && h('a', { class: 'badge', href: `${location.protocol}//${location.hostname}:${app.exposedPort}/` }, `port ${app.exposedPort}`)),
            app.kind === 'servicestack' && h('div', { class: 'links' },
              h('a', { href: slash + 'types/metadata' }, 'types/metadata'), h('a', { href: slash + 'types/swift' }, 'types/swift')),
            routes.length ? h('details', null, h('summary', null, plural(routes.length, noun)),
              h('div', { class: 'routes-box' }, h('table', { class: 'routes' }, routes.map(rt => h('tr', null,
                h('td', null, rt.name), h('td', { class: 'dim mono' }, (rt.methods || []).join(' ')),
                h('td', { class: 'mono' }, rt.path)))))) : h('div', { class: 'dim' }, `no ${noun}s`));
        }
        function addAppOption(name) {
          if (knownApps.has(name)) return;
          knownApps.add(name);
          $('app-filter').append(h('option', { value: name }, name));
        }

        // ---- Journal ----
        function matches(e) {
          const app = $('app-filter').value, text = $('text-filter').value.trim().toLowerCase();
          if (app && e.app !== app) return false;
          if (!text) return true;
          return [e.method, e.path, e.query, e.operation, e.status, e.stub, e.app].some(v => v != null && String(v).toLowerCase().includes(text));
        }
        function deliveryBadges(d) {
          if (!d) return [];
          const out = [];
          if (d.fault) out.push(h('span', { class: 'badge fault' }, 'fault: ' + d.fault));
          if (d.delayMs != null) out.push(h('span', { class: 'badge slow' }, `delay ${d.delayMs} ms`));
          if (d.throttleBytesPerSecond != null) out.push(h('span', { class: 'badge slow' }, `${bytes(d.throttleBytesPerSecond)}/s`));
          if (d.chunked) out.push(h('span', { class: 'badge' }, 'chunked'));
          return out;
        }
        function entryRow(e) {
          const target = e.path + (e.query ? '?' + e.query : '');
          const row = h('tr', { class: 'entry', 'data-id': e.id, title: e.time },
            h('td', { class: 'mono dim' }, clock(e.time)),
            h('td', { class: 'wrap' }, e.app, e.session != null && [' ', h('span', { class: 'badge' }, 'session ' + e.session)]),
            h('td', { class: 'method mono' }, e.method),
            h('td', { class: 'path mono' }, target),
            h('td', { class: `status mono s${Math.floor((e.status || 0) / 100)}` },
              e.status === 0 && e.delivery && e.delivery.fault ? e.delivery.fault : e.status),
            h('td', { class: 'op wrap' }, e.operation && h('span', { class: 'mono' }, e.operation + ' '),
              e.unmatched && h('span', { class: 'badge slow' }, 'unmatched'),
              e.stub && h('span', { class: 'badge stub' }, 'stub ' + e.stub), deliveryBadges(e.delivery),
              e.parts && h('span', { class: 'badge' }, plural(e.parts.length, 'part'))),
            h('td', { class: 'mono dim duration', title: durationNote(e) }, answeredAfter(e)));
          row.addEventListener('click', () => toggle(row, e));
          return row;
        }
        // How long the client waited for the answer to start: the app's time plus any delay it was
        // given (the journal's durationMs is the app's alone).
        function answeredAfter(e) {
          if (e.durationMs == null) return '';
          const delay = (e.delivery && e.delivery.delayMs) || 0;
          return `${Math.round((e.durationMs + delay) * 1000) / 1000} ms`;
        }
        function durationNote(e) {
          const delay = e.delivery && e.delivery.delayMs;
          return delay != null ? `the app took ${e.durationMs} ms, then the answer waited its ${delay} ms delay` : null;
        }
        function toggle(row, e) {
          const next = row.nextElementSibling;
          if (next && next.classList.contains('detail')) { next.remove(); row.classList.remove('open'); return; }
          row.after(h('tr', { class: 'detail', 'data-id': e.id }, h('td', { colspan: COLUMNS }, detail(e))));
          row.classList.add('open');
        }
        function headersTable(headers) {
          const pairs = Object.entries(headers || {});
          return pairs.length ? h('table', { class: 'kv mono' }, pairs.map(([k, v]) => h('tr', null, h('td', null, k), h('td', null, v))))
            : h('div', { class: 'dim' }, 'none');
        }
        function bodyBlock(body) {
          if (!body) return h('div', { class: 'dim' }, 'empty');
          const note = body.truncated ? h('div', { class: 'note' }, `truncated: only the start of ${bytes(body.size)} was kept`) : null;
          if (body.base64 != null) return [h('div', { class: 'dim' }, `binary, ${bytes(body.size)}, base64:`), note, h('pre', null, body.base64)];
          let text = body.text ?? '';
          if (/^\s*[[{]/.test(text)) { try { text = JSON.stringify(JSON.parse(text), null, 2); } catch (_) { /* not JSON, or cut */ } }
          return [h('div', { class: 'dim' }, bytes(body.size)), note, h('pre', null, text)];
        }
        function detail(e) {
          const res = e.response || {};
          return h('div', { class: 'panes' },
            h('div', null, h('h3', { class: 'mono' }, `${e.method} ${e.path}${e.query ? '?' + e.query : ''}`),
              h('div', { class: 'dim' }, `#${e.id} · ${e.time} · ${e.app != null ? 'app ' + e.app : 'no app'}`, e.session != null && ` · session ${e.session}`),
              h('h4', null, 'Request headers'), headersTable(e.headers),
              e.parts && [h('h4', null, 'Parts'), h('table', { class: 'kv mono' },
                h('tr', null, ['name', 'file', 'type', 'size'].map(t => h('td', null, t))),
                e.parts.map(p => h('tr', null, h('td', null, p.name), h('td', null, p.fileName ?? ''), h('td', null, p.contentType ?? ''), h('td', null, bytes(p.size)))))],
              h('h4', null, 'Request body'), bodyBlock(e.body)),
            h('div', null, h('h3', { class: `mono s${Math.floor((res.status ?? e.status ?? 0) / 100)}` }, `${res.status ?? e.status}`),
              h('div', { class: 'dim' }, [e.operation && `operation ${e.operation}`, e.stub && `stub ${e.stub}`,
                e.delivery && 'delivery ' + JSON.stringify(e.delivery), e.durationMs != null && `answered after ${answeredAfter(e)}`].filter(Boolean).join(' · ')),
              h('h4', null, 'Response headers'), headersTable(res.headers),
              h('h4', null, 'Response body'), bodyBlock(res.body)));
        }
        function trimRows() {
          const rows = $('journal').querySelectorAll('tr.entry');
          for (let i = rows.length - 1; i >= MAX_ROWS; i--) {
            const next = rows[i].nextElementSibling;
            if (next && next.classList.contains('detail')) next.remove();
            rows[i].remove();
          }
        }
        function updateCount() {
          const shown = $('journal').querySelectorAll('tr.entry').length;
          $('count').textContent = `${shown} shown / ${entries.length} recorded` + (dropped ? `, ${dropped} dropped` : '');
          $('journal-empty').style.display = shown ? 'none' : '';
        }
        function render() {
          const rows = entries.filter(matches).slice(-MAX_ROWS).reverse().map(entryRow);
          $('journal').replaceChildren(...rows);
          updateCount();
        }
        function addEntries(list, replace) {
          if (replace) entries = [];
          const fresh = list.filter(e => replace || e.id > lastId);
          entries.push(...fresh);
          if (entries.length > MAX_KEPT) entries.splice(0, entries.length - MAX_KEPT);
          for (const e of fresh) { lastId = Math.max(lastId, e.id); if (e.app != null) addAppOption(e.app); }
          if (replace) return render();
          const body = $('journal');
          for (const e of fresh) if (matches(e)) body.prepend(entryRow(e));
          trimRows();
          updateCount();
        }

        // ---- Stubs, sessions, sockets, unmatched requests ----
        function describeMatch(match) {
          const m = match || {};
          const text = v => v == null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
          const where = m.path != null ? text(m.path) : m.pathPrefix != null ? text(m.pathPrefix) + '…'
            : m.pathRegex != null ? '/' + text(m.pathRegex) + '/' : m.operation != null ? 'operation ' + text(m.operation) : 'any path';
          return `${m.method ? text(m.method) + ' ' : ''}${where}${m.app ? ' (app ' + m.app + ')' : ''}`;
        }
        function renderStub(s) {
          const def = s.definition || {};
          const answer = def.answer || {};
          const what = answer.fault ? 'fault ' + answer.fault : 'status ' + (answer.status ?? 200);
          return h('div', { class: 'item', 'data-stub': s.id },
            h('div', { class: 'app-head' }, h('b', { class: 'mono' }, s.id), h('span', { class: 'mono' }, describeMatch(def.match)),
              h('span', { class: 'badge' }, what), h('span', { class: 'badge stub' }, s.times != null ? `${s.hits} of ${s.times} hits` : plural(s.hits, 'hit')),
              s.exhausted && h('span', { class: 'badge slow' }, 'exhausted'), h('span', { class: 'badge' }, 'priority ' + s.priority)),
            s.nearMisses && s.nearMisses.length ? [h('div', { class: 'dim' }, 'near misses:'),
              h('ul', null, s.nearMisses.map(n => h('li', { class: 'near-miss' }, h('span', { class: 'mono' }, `${n.method} ${n.path}`), ` — ${n.reason}`)))] : null);
        }
        function renderSession(s) {
          return h('div', { class: 'item', 'data-session': s.id },
            h('a', { class: 'mono', href: s.prefix.replace(/\/?$/, '/') + '__mockstack/' }, s.id), ' ',
            h('span', { class: 'dim' }, `${plural(s.requests, 'request')} · since ${clock(s.created)}`));
        }
        function renderSocket(s) {
          return h('div', { class: 'item', 'data-socket': s.id },
            h('b', { class: 'mono' }, s.app), ' ', h('span', { class: 'mono' }, s.id), ' ',
            h('span', { class: 'badge' }, s.transport), ' ', h('span', { class: 'badge' }, s.signedIn ? 'signed in' : 'anonymous'), ' ',
            h('span', { class: 'dim' }, `${s.protocol} · channels: ${(s.channels || []).join(', ') || 'none'}`));
        }
        function renderUnmatched(e) {
          const near = (e.nearest || []).map(n => n.path);
          return h('div', { class: 'item', 'data-id': e.id },
            h('span', { class: 'mono dim' }, clock(e.time)), ' ', h('span', { class: 'method mono' }, e.method), ' ',
            h('span', { class: 'mono' }, e.path + (e.query ? '?' + e.query : '')),
            near.length ? h('div', { class: 'dim' }, 'did you mean ', near.flatMap((p, i) => [i ? ', ' : '', h('span', { class: 'mono' }, p)]), '?') : null);
        }
        async function loadSide() {
          const [stubs, unmatched, sessions, sockets] = await Promise.all([api('stubs'), api('requests/unmatched?limit=20'), session ? null : api('sessions'), api('sockets')]);
          if (!stubs.ok || !unmatched.ok || !sockets.ok || (sessions && !sessions.ok)) throw new Error('control plane: HTTP ' + [stubs, unmatched, sessions, sockets].find(r => r && !r.ok).status);
          showSide(await stubs.json(), await unmatched.json(), sessions && await sessions.json(), await sockets.json());
        }
        // Each argument is its endpoint's answer; sessions is null on a session's page.
        function showSide(stubs, unmatched, sessions, sockets) {
          const open = (sockets || {}).sockets || [];
          $('socket-count').textContent = `(${open.length})`;
          $('sockets').replaceChildren(...(open.length ? open.map(renderSocket) : [h('div', { class: 'empty' }, 'No sockets.')]));
          const list = (stubs || {}).stubs || [];
          $('stub-count').textContent = `(${list.length})`;
          $('stubs').replaceChildren(...(list.length ? list.map(renderStub) : [h('div', { class: 'empty' }, 'No stubs.')]));
          const misses = ((unmatched || {}).requests || []).slice().reverse();
          $('unmatched-count').textContent = `(${misses.length})`;
          $('unmatched').replaceChildren(...(misses.length ? misses.map(renderUnmatched) : [h('div', { class: 'empty' }, 'Every request reached an app or a stub.')]));
          if (sessions) {
            const all = sessions.sessions || [];
            $('session-count').textContent = `(${all.length})`;
            $('sessions').replaceChildren(...(all.length ? all.map(renderSession) : [h('div', { class: 'empty' }, 'No sessions.')]));
          }
        }
        if (session) $('sessions-section').remove();

        async function poll() {
          if (!paused) {
            try {
              if (needApps) await loadApps();
              await loadSide();
              const r = await api(`requests?since=${resync ? 0 : lastId}`);
              if (!r.ok) throw new Error('requests: HTTP ' + r.status);
              const data = await r.json();
              dropped = data.dropped || 0;
              // After an outage the server may have restarted (ids from 1 again): reload everything.
              addEntries(data.requests || [], resync);
              resync = false;
              if (!paused) setStatus('live', 'live');
            } catch (err) {
              resync = needApps = true;
              setStatus(err.message.includes('admin token') ? err.message : 'disconnected — retrying', 'down');
              console.warn(err);
            }
          }
          setTimeout(poll, 1000);
        }

        $('app-filter').addEventListener('change', render);
        $('text-filter').addEventListener('input', render);
        $('pause').addEventListener('click', () => {
          paused = !paused;
          $('pause').textContent = paused ? 'Resume' : 'Pause';
          if (paused) setStatus('paused', 'paused');
        });
        $('clear').addEventListener('click', async () => {
          try {
            const r = await api('requests', { method: 'DELETE' });
            if (!r.ok) throw new Error('HTTP ' + r.status);
            entries = []; dropped = 0;
            render();
          } catch (err) { setStatus('clear failed — ' + err.message, 'down'); }
        });
        updateCount();
        // What the first poll would fetch came with the page (when this browser may see it): shown
        // at once, so the page never waits on a round of requests to show the journal.
        const initial = $('initial') && JSON.parse($('initial').textContent);
        if (initial && initial.apps) {
          showApps(initial.apps.apps || []);
          showSide(initial.stubs, initial.unmatched, initial.sessions, initial.sockets);
          dropped = (initial.requests || {}).dropped || 0;
          addEntries((initial.requests || {}).requests || [], true);
          setStatus('live', 'live');
          setTimeout(poll, 1000);
        } else {
          poll();
        }
        </script>
        </body>
        </html>
        """#.utf8)
}
