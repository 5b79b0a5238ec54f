"""The live preview: ``aetherpress serve`` and ``aetherpress build --watch``.

- :mod:`.sides`: one card side as the preview knows it (its content key, its
  SVG or its problem) and how it is drawn;
- :mod:`.state`: the decks being previewed, reloaded after every save, with
  only the sides whose content changed drawn again;
- :mod:`.worker`: the loop on the main thread that reloads, draws and answers
  the server's requests (templates are bounded by a timer only there);
- :mod:`.watcher`: which files are the project's sources, and their changes;
- :mod:`.events`: server-sent events to every open page;
- :mod:`.server`, :mod:`.api`, :mod:`.assets`, :mod:`.pagefonts`: the HTTP server
  on loopback, its JSON, its pages (``static/``) and the shipped fonts for them;
- :mod:`.sidepng`: a side as a 300 dpi PNG;
- :mod:`.app`: all of it started together.
"""

__all__: list[str] = []  # the modules are imported by name
