/// The script `serve` adds to every HTML page it serves (never to what
/// `build` writes): it listens to the live-reload stream, reloads the page when a
/// build changed it, and shows the last build's errors over the page.
enum LiveScript {
    /// The live-reload stream's path on the server.
    static let livePath = "/_rowmotion/live"

    /// The element `serve` inserts into a page served after build `build`.
    static func element(build: Int) -> String {
        "<script data-rowmotion-live=\"\(build)\">\(source)</script>"
    }

    /// Inserts the script before the page's last `</body>`, or at its end.
    static func inject(into html: String, build: Int) -> String {
        let script = element(build: build)
        guard let range = html.range(of: "</body>", options: [.backwards, .caseInsensitive]) else {
            return html + script
        }
        return html.replacingCharacters(in: range.lowerBound..<range.lowerBound, with: script)
    }

    /// Plain ES5 on purpose: it runs in whatever the page runs in.
    static let source = """
    (function () {
      var script = document.currentScript;
      var live = window.rowmotionLive = { build: Number(script.getAttribute("data-rowmotion-live")), messages: [] };
      var path = decodeURIComponent(location.pathname).replace(/^\\//, "");
      if (path === "" || path.charAt(path.length - 1) === "/") path += "index.html";
      var overlay = null;
      function showErrors(errors) {
        if (!errors.length) {
          if (overlay) { overlay.remove(); overlay = null; }
          return;
        }
        if (!overlay) {
          overlay = document.createElement("div");
          overlay.id = "rowmotion-live-errors";
          overlay.setAttribute("role", "alert");
          overlay.style.cssText = "position:fixed;left:0;right:0;bottom:0;max-height:50vh;overflow:auto;z-index:2147483647;" +
            "padding:12px 16px;background:#2a0c10;color:#ffdadd;font:13px/1.5 ui-monospace,Menlo,monospace;" +
            "box-shadow:0 -4px 16px rgba(0,0,0,.35)";
          document.body.appendChild(overlay);
        }
        overlay.textContent = "";
        var title = document.createElement("strong");
        title.textContent = "The last build failed. This page is from the last build that succeeded.";
        var list = document.createElement("pre");
        list.style.cssText = "margin:8px 0 0;padding:0;border:0;background:none;color:inherit;font:inherit;white-space:pre-wrap";
        list.textContent = errors.join("\\n");
        overlay.appendChild(title);
        overlay.appendChild(list);
      }
      function connect() {
        // Server-Sent Events: the browser reconnects by itself when the
        // stream ends (after the server's `retry`); a refusal closes it for
        // good, so the page tries again a second later.
        var source = new EventSource("\(livePath)");
        source.onmessage = function (event) {
          var message = JSON.parse(event.data);
          live.messages.push(message);
          showErrors(message.errors);
          if (message.build === live.build) return;
          // The next build, and it did not touch this page: nothing to reload.
          if (message.type === "build" && message.build === live.build + 1 && message.changed &&
              message.changed.indexOf(path) < 0) {
            live.build = message.build;
            return;
          }
          location.reload();
        };
        source.onerror = function () {
          if (source.readyState === 2) setTimeout(connect, 1000);
        };
      }
      connect();
    })();
    """
}
