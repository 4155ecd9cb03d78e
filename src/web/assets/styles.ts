// The web app's one stylesheet: system fonts, light and dark from the system's
// preference, one column on a phone and a sidebar-free top bar everywhere.
export const STYLES = `
:root{color-scheme:light dark;--bg:#f6f7f9;--panel:#fff;--text:#111827;--muted:#5b6472;--line:#d9dde3;--accent:#4338ca;--accent-text:#fff;--danger:#b42318;--ok:#067647;--warn:#93370d;--focus:#2563eb;--mark:#fde68a}
@media (prefers-color-scheme:dark){:root{--bg:#0f1115;--panel:#181b21;--text:#e8eaed;--muted:#a3abb8;--line:#2e333b;--accent:#a5b4fc;--accent-text:#111827;--danger:#fda29b;--ok:#75e0a7;--warn:#fec84b;--focus:#93c5fd;--mark:#854d0e}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--text)}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--panel);padding:.5rem;z-index:10}
header.top{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.25rem;padding:.75rem 1.25rem;background:var(--panel);border-bottom:1px solid var(--line)}
header.top .brand{font-weight:700;text-decoration:none;color:var(--text);font-size:1.1rem}
header.top nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem}
header.top nav a{text-decoration:none;color:var(--muted);padding:.25rem 0}
header.top .settings-menu{position:relative}header.top .settings-menu>summary{cursor:pointer;color:var(--muted);padding:.25rem 0;list-style:none}header.top .settings-menu>summary::-webkit-details-marker{display:none}header.top .settings-menu>summary::after{content:" ▾"}header.top .settings-menu>summary[aria-current=page]{color:var(--text);font-weight:600;border-bottom:2px solid var(--accent)}header.top .settings-menu .menu{position:absolute;z-index:20;top:2rem;left:0;display:flex;gap:1.5rem;background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:.75rem 1rem;box-shadow:0 6px 20px rgb(0 0 0/.15)}header.top .settings-menu .group{display:flex;flex-direction:column;gap:.15rem;min-width:9rem}.settings-nav{display:flex;flex-wrap:wrap;gap:.5rem 2rem;margin:0 0 1rem;padding-bottom:.5rem;border-bottom:1px solid var(--line)}.settings-nav>div{display:flex;flex-wrap:wrap;align-items:baseline;gap:.25rem .9rem}.settings-nav a{text-decoration:none;color:var(--muted)}.settings-nav a[aria-current=page]{color:var(--text);font-weight:600}header.top nav a[aria-current=page]{color:var(--text);font-weight:600;border-bottom:2px solid var(--accent)}
header.top .who{margin-left:auto;display:flex;align-items:center;gap:.75rem;color:var(--muted);font-size:.9rem}
main{max-width:60rem;margin:0 auto;padding:1.25rem}
main.narrow{max-width:28rem;padding-top:3rem}main.wide{max-width:84rem}@media (min-width:64rem){.note-layout.beside{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);grid-template-areas:"text player" "text transcript";grid-template-rows:auto 1fr;column-gap:2rem;align-items:start}.note-layout.beside .note-text{grid-area:text}.note-layout.beside .note-player{grid-area:player;position:sticky;top:0;z-index:5}.note-layout.beside .note-transcript{grid-area:transcript;position:sticky;top:3.5rem;max-height:calc(100vh - 4rem);overflow-y:auto}.note-layout.beside .note-transcript>h2{margin-top:0}}
h1{font-size:1.5rem;margin:.25rem 0 1rem;line-height:1.3;overflow-wrap:anywhere}
h2{font-size:1.15rem;margin:1.75rem 0 .5rem}
.panel{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:1rem 1.25rem;margin:0 0 1rem}
.muted{color:var(--muted)}.small{font-size:.875rem}.warning{display:block;color:var(--danger)}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=text],input[type=email],input[type=password],input[type=search],input[type=date],input[type=url],input[type=number],select,textarea{width:100%;padding:.55rem .65rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--text);font:inherit}
textarea{min-height:10rem;font-family:ui-monospace,monospace;font-size:.9rem}
fieldset{border:1px solid var(--line);border-radius:8px;margin:.75rem 0;padding:.5rem 1rem}
fieldset label{font-weight:400;display:flex;gap:.5rem;align-items:center;margin:.25rem 0}
[hidden]{display:none!important}
button,.button{display:inline-block;padding:.55rem 1rem;border:1px solid transparent;border-radius:6px;background:var(--accent);color:var(--accent-text);font:inherit;font-weight:600;cursor:pointer;text-decoration:none}
button.secondary,.button.secondary{background:transparent;color:var(--text);border-color:var(--line)}
button.danger{background:var(--danger);color:#fff}
button.link{background:none;border:0;color:var(--accent);padding:0;font-weight:400;text-decoration:underline}
.row{display:flex;flex-wrap:wrap;gap:.75rem;align-items:end}.row>*{flex:1 1 10rem}.row>.grow{flex:3 1 16rem}.row>.fit{flex:0 0 auto}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:1rem}.coming-up h2{margin-top:0}.coming-up ul{list-style:none;margin:0;padding:0}.coming-up li{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .75rem;padding:.35rem 0;border-top:1px solid var(--line)}.coming-up li:first-child{border-top:0}.coming-up .when{color:var(--muted);font-size:.85rem;min-width:9.5rem}.coming-up .what{flex:1;font-weight:600}.coming-up .actions{margin:0;align-items:center}form.panel>button,form.panel>fieldset+button{margin-top:1rem}
.alert{padding:.65rem .85rem;border-radius:8px;border:1px solid var(--line);margin:0 0 1rem}
.alert.error{border-color:var(--danger);color:var(--danger)}.alert.ok{border-color:var(--ok);color:var(--ok)}
.secret{display:flex;gap:.5rem;align-items:center}.secret code{flex:1;overflow-wrap:anywhere;padding:.5rem;background:var(--bg);border:1px solid var(--line);border-radius:6px}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:.5rem .4rem;border-bottom:1px solid var(--line);vertical-align:top;overflow-wrap:break-word}
.table{overflow-x:auto;max-width:100%;margin-bottom:1rem}th{font-size:.8rem;text-transform:uppercase;letter-spacing:.03em;color:var(--muted)}
ul.notes{list-style:none;margin:0;padding:0}ul.notes li{padding:.75rem 0;border-bottom:1px solid var(--line)}
ul.notes a.title{font-weight:600;text-decoration:none;overflow-wrap:anywhere}ul.notes .meta{font-size:.875rem;color:var(--muted)}
.badge{display:inline-block;font-size:.75rem;padding:.05rem .45rem;border-radius:999px;border:1px solid var(--line);color:var(--muted)}
.badge.completed{color:var(--ok);border-color:var(--ok)}.badge.recorded-not-summarized{color:var(--danger);border-color:var(--danger)}
.pager{display:flex;justify-content:space-between;margin-top:1rem}
.markdown{overflow-wrap:anywhere}.markdown pre{overflow:auto;background:var(--bg);padding:.5rem}.markdown label{font-weight:inherit;display:inline;margin:0}
.mail-preview{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.75rem;font-size:.9rem}
.meeting{margin:1rem 0}.series{display:flex;justify-content:space-between;gap:1rem;flex-wrap:wrap;margin:.5rem 0}.participants input{margin-bottom:.4rem}form.inline{display:inline}
ol.transcript{list-style:none;margin:0;padding:0}ol.transcript li{display:grid;grid-template-columns:4.5rem 1fr;gap:.5rem;padding:.35rem 0;border-bottom:1px solid var(--line)}
ol.transcript button.at{font-variant-numeric:tabular-nums;background:none;color:var(--accent);border:0;padding:0;text-align:left;font-weight:600;cursor:pointer}
ol.transcript .speaker{font-weight:600;margin-right:.35rem}
ul.action-items{list-style:none;padding:0}ul.action-items li{display:flex;gap:.75rem;align-items:flex-start;padding:.4rem 0;border-bottom:1px solid var(--line)}ul.action-items li.done .task{text-decoration:line-through;color:var(--muted)}.overdue{color:var(--danger);font-weight:600}a.moment{font-size:.8em;font-variant-numeric:tabular-nums;white-space:nowrap;color:var(--muted,inherit)}ol.transcript li.playing{background:color-mix(in srgb,var(--mark) 35%,transparent)}ol.transcript li.cited,ol.transcript li:target{background:color-mix(in srgb,var(--mark) 60%,transparent);outline:2px solid var(--mark);scroll-margin-top:4rem}
ol.transcript li.marked-speaker{box-shadow:inset 4px 0 0 var(--accent);background:color-mix(in srgb,var(--accent) 8%,transparent)}ol.transcript li[data-line]:focus-visible{outline:2px solid var(--accent);outline-offset:-2px}input.line-edit{width:100%;margin:0;font:inherit}
ul.speakers{list-style:none;margin:0;padding:0}ul.speakers li{display:flex;align-items:center;gap:.5rem;flex-wrap:wrap}ul.speakers meter{width:8rem}ul.speakers button[aria-pressed=true]{font-weight:700;text-decoration:underline}
mark{background:var(--mark);color:inherit}
audio{width:100%;margin:.5rem 0}
dialog.overlay>button.close{float:right;font-size:1.4rem;line-height:1;padding:0 .25rem;margin:-.25rem -.25rem 0 .5rem}button.go-to{padding:.25rem .6rem;font-size:.85rem}
ul.contains-task-list{list-style:none;padding-left:.25rem}.task-list-item-checkbox{margin:0 .5rem 0 0;vertical-align:middle}
details.filters>summary{cursor:pointer;font-weight:600;margin:.5rem 0;color:var(--muted)}.list-tools{display:flex;flex-wrap:wrap;gap:.5rem;margin-bottom:.75rem}.list-tools>details.fold{flex:0 1 auto}.list-tools>details.fold[open]{flex-basis:100%}.list-tools>details.fold>summary{cursor:pointer;display:inline-block;padding:.35rem .8rem;border:1px solid var(--line);border-radius:999px;font-weight:600;color:var(--text);background:var(--panel)}.list-tools>details.fold[open]>summary{margin-bottom:.5rem}@media (min-width:40rem){.list-tools>details.fold[open]>summary{display:none}}
.player-bar{position:sticky;top:0;z-index:5;background:var(--bg);padding:.4rem 0;margin:0 0 1rem;border-bottom:1px solid var(--line)}.player-bar audio{margin:0}p.player-bar{padding:.6rem 0}@media (max-width:63.99rem){.player-bar.docked{position:fixed;left:0;right:0;top:auto;bottom:0;z-index:20;margin:0;padding:.4rem .75rem calc(.4rem + env(safe-area-inset-bottom));border-bottom:0;border-top:1px solid var(--line);box-shadow:0 -2px 8px rgba(0,0,0,.12)}body.player-docked{padding-bottom:5rem}}
.dropzone{border:2px dashed var(--line);border-radius:10px;padding:1.5rem;text-align:center}.dropzone.over{border-color:var(--accent)}
.page-head{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem}.page-head h1{margin-right:auto}.share-panel{position:relative}.share-panel>summary{list-style:none;cursor:pointer}.share-panel>summary::-webkit-details-marker{display:none}.share-panel>.panel{position:absolute;right:0;z-index:5;width:min(26rem,90vw);margin-top:.25rem}@media (max-width:600px){.share-panel{position:static;flex-basis:100%}.share-panel>.panel{position:static;width:auto}}.history{padding-left:1.25rem}.history-text{white-space:pre-wrap;max-height:16rem;overflow:auto;font-size:.85rem}.record-live{display:grid;gap:1rem;margin-top:1rem}.record-notepad textarea{width:100%;min-height:10rem;font-family:inherit}@media (min-width:900px){.record-live{grid-template-columns:1fr 1fr;align-items:start}}form#record .actions{position:sticky;top:0;bottom:0;z-index:2;background:var(--panel);padding:.5rem 0;margin-bottom:0}.recorder{display:flex;align-items:center;gap:1rem;margin:.75rem 0}.recorder .elapsed{font-variant-numeric:tabular-nums;font-weight:600;font-size:1.25rem}.recorder .elapsed::before{content:"● ";color:#dc2626}.recorder.paused .elapsed::before{content:"❚❚ ";color:inherit}.recorder meter{flex:1;min-width:6rem;height:.9rem}
label.check{display:flex;gap:.5rem;align-items:flex-start;font-weight:normal}label.check input{width:auto;margin-top:.25rem}
progress{width:100%;height:1rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
dialog.overlay{border:1px solid var(--line);border-radius:10px;background:var(--panel);color:var(--text);padding:1rem;width:min(34rem,92vw);margin-top:12vh}dialog.overlay::backdrop{background:#0007}
#switcher-q{width:100%;font-size:1.05rem}#switcher-list{list-style:none;margin:.5rem 0 0;padding:0;max-height:50vh;overflow:auto}#switcher-list li{padding:.4rem .5rem;border-radius:6px;cursor:pointer}#switcher-list li .kind{color:var(--muted);font-size:.85rem}#switcher-list li[aria-selected=true]{background:var(--accent);color:var(--accent-text)}#switcher-list li[aria-selected=true] .kind{color:inherit}
dl.keys{display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem}dl.keys dd{margin:0}kbd{border:1px solid var(--line);border-radius:4px;padding:0 .3rem;font:inherit;font-size:.85rem}
.menu-toggle,.menu-button{display:none}
@media (max-width:40rem){header.top .settings-menu .menu{position:static;flex-direction:column;gap:.5rem;border:0;box-shadow:none;padding:.25rem 0 0 .75rem}.menu-button{display:inline-block;margin-left:auto;padding:.3rem .7rem;border:1px solid var(--line);border-radius:6px;cursor:pointer;color:var(--text)}.menu-toggle{display:block;position:absolute;opacity:0;width:1px;height:1px}.menu-toggle:focus-visible+.menu-button{outline:2px solid var(--focus);outline-offset:2px}header.top nav,header.top .who{display:none}.menu-toggle:checked~nav{display:flex;flex-direction:column;width:100%}.menu-toggle:checked~.who{display:flex}}
@media (max-width:40rem){.table table,.table tbody,.table tr,.table td{display:block;width:100%}.table thead{position:absolute;left:-9999px}.table tr{border-bottom:1px solid var(--line);padding:.5rem 0}.table td{border:0;padding:.15rem 0}.table td[data-label]:not([data-label=""])::before{content:attr(data-label);display:block;font-size:.75rem;text-transform:uppercase;letter-spacing:.03em;color:var(--muted)}main{padding:1rem}.panel{padding:.85rem}header.top .who{margin-left:0;width:100%}ol.transcript li{grid-template-columns:3.75rem 1fr}}
.ask-form .row>input{flex:3 1 16rem}.ask-form .row>button{flex:0 0 auto}.ask-live:empty{display:none}.ask-live{margin-bottom:.75rem}.ask-answer{margin-top:.75rem}.ask-live .turn+.turn{margin-top:1rem}.ask-live .question{font-weight:600}.ask-answer .answer,.ask-live .answer{white-space:pre-wrap}ol.sources{padding-left:1.5rem}ol.sources li{margin:.3rem 0}ul.threads{list-style:none;padding:0}ul.threads li{padding:.4rem 0;border-bottom:1px solid var(--line)}
`;
