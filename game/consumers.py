"""The table socket (/ws/tables/<id>/): waiting room and game share it (DESIGN.md wire protocol)."""

from channels.generic.websocket import AsyncJsonWebsocketConsumer


class TableConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        await self.close(code=4404)
