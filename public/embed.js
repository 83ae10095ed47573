/*!
 * Convene embed: mounts the hosted call UI in an iframe and speaks its postMessage protocol.
 *
 *   <script src="https://<convene>/embed.js"></script>
 *   const call = ConveneEmbed.mount(document.getElementById('meeting'), { url: joinUrl });
 *   call.on('joined', (data) => ...);        // ready, joined, left, waiting, admitted,
 *                                            // participant-joined, participant-left, error,
 *                                            // recording-started, recording-stopped, command-failed
 *   call.toggleMicrophone(); call.toggleCamera(); call.setDisplayName('Ada'); call.leave();
 *   call.destroy();
 *
 * `url` is a joinUrl or admissionUrl from the API (with its #fragment: the E2EE key or the
 * admission secret goes into the frame's address only, never into a message). This page's
 * origin must be in the tenant's frameAncestors, or the browser refuses to show the frame and
 * the call UI neither sends events to it nor takes its commands. See docs/hosted-ui.md.
 */
(function (global) {
  'use strict';
  var ALLOW = 'camera; microphone; display-capture; autoplay; fullscreen; clipboard-write';

  function mount(container, options) {
    if (!container || !container.appendChild) throw new Error('ConveneEmbed.mount: give a container element');
    if (!options || typeof options.url !== 'string') throw new Error('ConveneEmbed.mount: give options.url (a join or admission URL)');
    var target = new URL(options.url, global.location.href);
    if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new Error('ConveneEmbed.mount: the URL must be http(s)');
    var origin = target.origin;
    var listeners = {};
    var iframe = global.document.createElement('iframe');
    iframe.src = target.toString();
    iframe.allow = ALLOW;
    iframe.allowFullscreen = true;
    // The call UI checks which origin frames it; Firefox tells it only through the referrer.
    iframe.referrerPolicy = 'origin';
    iframe.title = options.title || 'Meeting';
    iframe.style.border = '0';
    iframe.style.width = options.width || '100%';
    iframe.style.height = options.height || '100%';
    container.appendChild(iframe);

    function emit(event, data) {
      var fns = (listeners[event] || []).concat(listeners['*'] || []);
      for (var i = 0; i < fns.length; i++) {
        try {
          fns[i](data, event);
        } catch (err) {
          setTimeout(function () { throw err; });
        }
      }
    }
    function onMessage(e) {
      // Only the frame we made, at the origin we loaded, speaking this protocol.
      if (e.source !== iframe.contentWindow || e.origin !== origin) return;
      var msg = e.data;
      if (!msg || msg.source !== 'convene' || typeof msg.event !== 'string') return;
      emit(msg.event, msg.data || {});
    }
    global.addEventListener('message', onMessage);

    function send(command, args) {
      if (!iframe.contentWindow) return;
      var msg = { source: 'convene-embed', command: command };
      if (args) for (var k in args) if (Object.prototype.hasOwnProperty.call(args, k)) msg[k] = args[k];
      iframe.contentWindow.postMessage(msg, origin);
    }

    return {
      iframe: iframe,
      on: function (event, fn) {
        (listeners[event] = listeners[event] || []).push(fn);
        return this;
      },
      off: function (event, fn) {
        listeners[event] = (listeners[event] || []).filter(function (f) { return f !== fn; });
        return this;
      },
      leave: function () { send('leave'); },
      toggleMicrophone: function () { send('toggle-microphone'); },
      toggleCamera: function () { send('toggle-camera'); },
      setDisplayName: function (displayName) { send('set-display-name', { displayName: String(displayName) }); },
      destroy: function () {
        global.removeEventListener('message', onMessage);
        listeners = {};
        if (iframe.parentNode) iframe.parentNode.removeChild(iframe);
      },
    };
  }

  global.ConveneEmbed = { mount: mount, version: 1 };
})(window);
