from django.urls import path

from . import party_views, views

app_name = "social"
urlpatterns = [
    path("play/", views.play, name="play"),
    path("play/search/", views.search, name="search"),
    path("play/search/start/", views.search_start, name="search_start"),
    path("play/search/quick/", views.search_quick, name="search_quick"),
    path("play/search/cancel/", views.search_cancel, name="search_cancel"),
    path("play/search/status/", views.search_status, name="search_status"),
    path("play/party/invite/<int:player_id>/", party_views.invite, name="party_invite"),
    path("play/party/invitations/<int:invitation_id>/", party_views.invitation, name="party_invitation"),
    path("play/party/leave/", party_views.leave, name="party_leave"),
    path("people/", views.friends, name="friends"),
    path("people/online/", views.online, name="online"),
    path("people/settings/", views.preferences, name="preferences"),
    path("people/<int:player_id>/", views.player, name="player"),
    path("people/<int:player_id>/friend/", views.friend, name="friend"),
    path("people/<int:player_id>/block/", views.block, name="block"),
    path("people/<int:player_id>/invite/", views.invite, name="invite"),
    path("people/tables/<int:table_id>/reliable/", views.reliable_only, name="reliable_only"),
    path("people/invitations/<int:invitation_id>/", views.invitation, name="invitation"),
    path("people/invitations/<int:invitation_id>/withdraw/", views.invitation_withdraw, name="invitation_withdraw"),
]
