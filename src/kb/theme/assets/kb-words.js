/* The interface words the site's scripts show come from the knowledge base's message catalogue
   (src/kb/messages/__init__.py, the "js." keys), which the build writes into this file where the
   words go below (kb.site.theme.words_script): one file the browser keeps, loaded on every page
   before the scripts that read it.  kbWord("tables.shown", {shown: 3, total: 9}) is that text with
   its {names} filled in; a key the file does not carry reads as "". */
(function () {
  "use strict";
  var words = {} /* the interface words: kb.site.theme.words_script */;
  window.kbWord = function (key, values) {
    var text = typeof words[key] === "string" ? words[key] : "";
    values = values || {};
    return text.replace(/\{(\w+)\}/g, function (field, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : field;
    });
  };
  window.kbWords = function (key) {
    return words[key];
  };
})();
