"""Scenes: every screen of the window (menus, New race, the race, pause, results, the shop and
championship standings, the playback of either game, Graph Trees, the editor). Each has
handle / update / draw. A scene never imports another (only the one it extends): the way to
another screen is ``self.app.routes`` (``ui/routes.py``)."""
