"""A real SMTP server on localhost (aiosmtpd) that delivers each recipient's mail into their Maildir."""

from __future__ import annotations

import mailbox
import socket
from contextlib import contextmanager
from pathlib import Path

from aiosmtpd.controller import Controller


class MaildirDelivery:
    """The handler: one Maildir per address; an unknown address is refused as a real server would."""

    def __init__(self, boxes: dict[str, Path]):
        self.boxes = boxes
        self.received: list[bytes] = []
        for path in boxes.values():
            path.parent.mkdir(parents=True, exist_ok=True)
            mailbox.Maildir(path, create=True)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address not in self.boxes:
            return "550 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.received.append(envelope.original_content)
        for address in envelope.rcpt_tos:
            mailbox.Maildir(self.boxes[address], create=False).add(envelope.original_content)
        return "250 Message accepted for delivery"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def smtp_server(boxes: dict[str, Path], port: int | None = None, **kwargs):
    """Yield (port, handler) while a real SMTP server listens on 127.0.0.1 (on `port`, or a free one)."""
    handler = MaildirDelivery(boxes)
    port = port or free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, server_hostname="localhost", **kwargs)
    controller.start()
    try:
        yield port, handler
    finally:
        controller.stop()
