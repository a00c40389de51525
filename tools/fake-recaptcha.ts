/**
 * A stand-in for Google's reCAPTCHA v2 api.js, for the browser tests (served in place of Google's by
 * e2e/support/fakes.ts) and for `LOCAL_CAPTCHA=fake npm start` (loaded by every page before the app, so
 * the contact form works offline). A plain browser script, sent as text.
 */

/** The checkbox the fake widget renders; tests click it to "solve" the captcha. */
export const FAKE_CAPTCHA_LABEL = "I'm not a robot";

/**
 * A fake reCAPTCHA v2 api.js: defines window.grecaptcha (render/reset/getResponse/execute/ready)
 * and renders a real checkbox button into the widget's container; clicking it calls the widget's
 * `callback` with a token (window.__fakeRecaptcha.nextToken, else a fresh fake token). Like the
 * real script, it calls the `onload` callback named in its URL asynchronously, after it has run.
 * window.__fakeRecaptcha lets tests inspect the widgets (sitekey, size, resets) and expire them.
 */
export const FAKE_RECAPTCHA_JS = String.raw`(function () {
  var widgets = [];
  var state = { widgets: widgets, resets: 0, issued: 0, nextToken: null,
    expire: function (id) {
      var w = widgets[id || 0];
      if (!w) return false;
      w.token = '';
      w.button.setAttribute('aria-checked', 'false');
      if (typeof w.params['expired-callback'] === 'function') w.params['expired-callback']();
      return true;
    },
    describe: function () {
      return widgets.map(function (w) {
        return { sitekey: w.params.sitekey, size: w.params.size, hl: w.params.hl, token: w.token, attached: document.contains(w.button) };
      });
    }
  };
  function widget(id) {
    var w = widgets[id === undefined || id === null ? 0 : id];
    if (!w) throw new Error('fake reCAPTCHA: no widget ' + id);
    return w;
  }
  window.__fakeRecaptcha = state;
  window.grecaptcha = {
    render: function (container, params) {
      var host = typeof container === 'string' ? document.getElementById(container) : container;
      if (!host) throw new Error('fake reCAPTCHA: no container');
      if (!params || !params.sitekey) throw new Error('fake reCAPTCHA: missing sitekey');
      (window.__recaptchaRenders = window.__recaptchaRenders || []).push({ theme: params.theme, size: params.size });
      var id = widgets.length;
      var button = document.createElement('button');
      button.type = 'button';
      button.setAttribute('role', 'checkbox');
      button.setAttribute('aria-checked', 'false');
      button.setAttribute('data-fake-recaptcha', String(id));
      button.textContent = "I'm not a robot";
      var w = { params: params, token: '', button: button };
      button.addEventListener('click', function () {
        state.issued += 1;
        w.token = state.nextToken || 'fake-token-' + state.issued + '-' + Math.random().toString(36).slice(2);
        button.setAttribute('aria-checked', 'true');
        if (typeof params.callback === 'function') params.callback(w.token);
      });
      host.appendChild(button);
      widgets.push(w);
      return id;
    },
    reset: function (id) {
      var w = widget(id);
      state.resets += 1;
      w.token = '';
      w.button.setAttribute('aria-checked', 'false');
    },
    getResponse: function (id) { return widget(id).token; },
    execute: function () {},
    ready: function (cb) { setTimeout(cb, 0); }
  };
  var script = document.currentScript;
  var match = script && /[?&]onload=([^&]+)/.exec(script.src);
  if (match) {
    var name = decodeURIComponent(match[1]);
    // Asynchronous, as Google's loader does: the page sets up its callback before it fires.
    setTimeout(function () { if (typeof window[name] === 'function') window[name](); }, 10);
  }
})();`;
