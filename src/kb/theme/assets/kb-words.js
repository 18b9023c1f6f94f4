/* The interface words the site's scripts show come from the knowledge base's message catalogue
   (src/kb/messages/__init__.py, the "js." keys), which every page carries as JSON in
   <script id="kb-words"> (overrides/main.html).  kbWord("tables.shown", {shown: 3, total: 9})
   is that text with its {names} filled in; a key the page does not carry reads as "". */
(function () {
  "use strict";
  var words = null;
  window.kbWord = function (key, values) {
    if (words === null) {
      try {
        words = JSON.parse(document.getElementById("kb-words").textContent) || {};
      } catch (e) {
        words = {};
      }
    }
    var text = typeof words[key] === "string" ? words[key] : "";
    values = values || {};
    return text.replace(/\{(\w+)\}/g, function (field, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : field;
    });
  };
  window.kbWords = function (key) {
    kbWord(""); // loads them
    return words[key];
  };
})();
