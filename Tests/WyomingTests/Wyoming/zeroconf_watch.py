"""Watches the local network for Wyoming services with python-zeroconf, as Home Assistant does.

    zeroconf_watch.py NAME SECONDS

Prints "added NAME PORT" when the service NAME._wyoming._tcp.local. appears (with the port its
records give) and "removed NAME" when it says goodbye; ends at the goodbye or after SECONDS.
"""
import sys
import threading

from zeroconf import ServiceBrowser, ServiceListener, Zeroconf

SERVICE = "_wyoming._tcp.local."


def main(name, seconds):
    wanted = f"{name}.{SERVICE}"
    gone = threading.Event()

    class Listener(ServiceListener):
        def add_service(self, zc, type_, service):
            if service == wanted:
                info = zc.get_service_info(type_, service, timeout=3000)
                print(f"added {name} {info.port if info else None}", flush=True)

        def update_service(self, zc, type_, service):
            pass

        def remove_service(self, zc, type_, service):
            if service == wanted:
                print(f"removed {name}", flush=True)
                gone.set()

    zeroconf = Zeroconf()
    ServiceBrowser(zeroconf, SERVICE, Listener())
    gone.wait(float(seconds))
    zeroconf.close()


if __name__ == "__main__":
    main(*sys.argv[1:])
