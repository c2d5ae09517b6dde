"""The rooms of issue 29, written once for every test that fits an app to a screen.

Each is the (width, window height) in CSS px that ``LessonApp.fit`` gets from the page: the
row beside or above the controls in Voila at 1280x720, 853x480 (1280x720 at 150 % zoom),
1366x768 and 1920x1080, and JupyterLab's column with its file browser open.
"""

ROOMS = {"1280x720": (1240, 720), "853x480": (833, 480), "lab": (800, 640),
         "1366x768": (1326, 768), "1920x1080": (1880, 1080)}
