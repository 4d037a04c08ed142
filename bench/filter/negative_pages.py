"""Non-article pages for judging the content filter: a generator written for that evaluation.

It shares no template, text or markup with the test fixtures (`tests/fixtures/site`) or the demo
site (`newsspider/demo`) that the content score was tuned on. Every page is built from a seeded
random choice of:

- a *kind* of page an article callback can receive although it is not an article (`KINDS`);
- a language (`LANGS`: en, de, fr, es, pt, ru, zh, ja, ar), whose interface strings were written
  for this module;
- a markup style (`STYLES`): semantic HTML5, class-soup ``div``s with generated class names, an
  old table layout with upper-case tags and ``<br>`` breaks, or minified HTML5 on one line.

`generate()` returns them in a fixed order for a given seed. Nothing here looks at the content
score: the pages are made to resemble the web, not to pass or fail a threshold.
"""

from __future__ import annotations

import json
import random
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = ["KINDS", "LANGS", "STYLES", "NegativePage", "generate"]

STYLES = ("html5", "divsoup", "table", "minified")


@dataclass(frozen=True, slots=True)
class NegativePage:
    kind: str
    lang: str
    style: str
    url: str
    content_type: str
    body: bytes


@dataclass(frozen=True, slots=True)
class _Lang:
    code: str
    words: tuple[str, ...]
    glue: tuple[str, ...]
    spaced: bool  # words separated by spaces (False for zh, ja)
    stop: str  # sentence end
    ui: dict[str, str]
    sections: tuple[str, ...]
    footer: tuple[str, ...]
    cookie_text: str
    purposes: tuple[str, ...]
    site: str


def _lang(
    code: str,
    words: str,
    glue: str,
    *,
    ui: dict[str, str],
    sections: str,
    footer: str,
    cookie_text: str,
    purposes: str,
    site: str,
    spaced: bool = True,
    stop: str = ".",
) -> _Lang:
    return _Lang(
        code=code,
        words=tuple(words.split()),
        glue=tuple(glue.split()),
        spaced=spaced,
        stop=stop,
        ui=ui,
        sections=tuple(sections.split("|")),
        footer=tuple(footer.split("|")),
        cookie_text=cookie_text,
        purposes=tuple(purposes.split("|")),
        site=site,
    )


LANGS: dict[str, _Lang] = {
    "en": _lang(
        "en",
        "government council river election market storm school hospital minister police "
        "festival budget energy prices team match coach museum city village report study "
        "scientists workers company court judge bridge road farmers water climate rail airport "
        "tourism housing plan vote union strike",
        "the a of to in for on with after before new says will has over against about",
        ui={
            "search": "Search results for “{q}”",
            "found": "About {n} results",
            "next": "Next page",
            "prev": "Previous",
            "sort": "Sort by: relevance · newest first",
            "tag": "Stories tagged “{t}”",
            "author": "Articles by {a}",
            "bio": "{a} covers {t} and {u} for {s}.",
            "latest": "Latest news",
            "most_read": "Most read",
            "more": "Read more",
            "login": "Sign in to your account",
            "email": "Email address",
            "password": "Password",
            "forgot": "Forgot your password?",
            "register": "Create a free account",
            "submit": "Continue",
            "paywall": "This story is for subscribers. Subscribe today to keep reading.",
            "offer": "Get unlimited access for $1 a week",
            "privacy": "We value your privacy",
            "accept": "Accept all",
            "reject": "Reject all",
            "manage": "Manage options",
            "notfound": "Page not found",
            "notfound_text": "Sorry, the page you requested could not be found. It may have "
            "been moved or removed. Try the search box or go back to the home page.",
            "home": "Home",
            "js": "You need to enable JavaScript to run this app.",
            "loading": "Loading…",
            "video": "Video",
            "views": "{n} views",
            "more_videos": "More videos",
            "contact": "Contact us",
            "name": "Your name",
            "message": "Message",
            "send": "Send",
            "newsletter": "Sign up for our morning newsletter",
            "cart": "Add to basket",
            "price": "${p}",
            "results_for": "Showing {n} products",
        },
        sections="Home|World|Politics|Business|Sport|Culture|Science|Opinion|Travel|Weather",
        footer="About us|Contact|Advertise|Careers|Privacy policy|Terms of use|Cookie settings"
        "|Newsletters|RSS|Help",
        cookie_text="We and our 842 partners store and access information on your device, such "
        "as cookies, and process personal data such as unique identifiers and browsing data for "
        "personalised advertising and content, measurement and audience research. You can "
        "accept, reject or customise your choices at any time in the privacy settings at the "
        "bottom of the page.",
        purposes="Store and/or access information on a device|Personalised advertising and "
        "content|Measure advertising and content performance|Develop and improve services",
        site="The Northfield Courier",
    ),
    "de": _lang(
        "de",
        "Regierung Stadtrat Fluss Wahl Markt Sturm Schule Krankenhaus Minister Polizei Fest "
        "Haushalt Energie Preise Mannschaft Spiel Trainer Museum Stadt Dorf Bericht Studie "
        "Forscher Arbeiter Unternehmen Gericht Brücke Straße Bauern Wasser Klima Bahn Flughafen "
        "Wohnungen Plan Abstimmung Gewerkschaft Streik",
        "der die das und mit für nach vor neue sagt wird hat gegen über im",
        ui={
            "search": "Suchergebnisse für „{q}“",
            "found": "{n} Treffer",
            "next": "Nächste Seite",
            "prev": "Zurück",
            "sort": "Sortieren nach: Relevanz · Datum",
            "tag": "Alle Artikel zum Thema „{t}“",
            "author": "Artikel von {a}",
            "bio": "{a} schreibt für {s} über {t} und {u}.",
            "latest": "Neueste Meldungen",
            "most_read": "Meistgelesen",
            "more": "Weiterlesen",
            "login": "Anmelden",
            "email": "E-Mail-Adresse",
            "password": "Passwort",
            "forgot": "Passwort vergessen?",
            "register": "Kostenlos registrieren",
            "submit": "Weiter",
            "paywall": "Dieser Artikel ist nur für Abonnenten verfügbar. Jetzt abonnieren und "
            "weiterlesen.",
            "offer": "Vier Wochen für 0,99 € testen",
            "privacy": "Wir respektieren Ihre Privatsphäre",
            "accept": "Alle akzeptieren",
            "reject": "Alle ablehnen",
            "manage": "Einstellungen",
            "notfound": "Seite nicht gefunden",
            "notfound_text": "Leider konnten wir die gewünschte Seite nicht finden. Möglicherweise "
            "wurde sie verschoben oder gelöscht. Nutzen Sie die Suche oder kehren Sie zur "
            "Startseite zurück.",
            "home": "Startseite",
            "js": "Bitte aktivieren Sie JavaScript, um diese Seite zu nutzen.",
            "loading": "Wird geladen …",
            "video": "Video",
            "views": "{n} Aufrufe",
            "more_videos": "Weitere Videos",
            "contact": "Kontakt",
            "name": "Ihr Name",
            "message": "Nachricht",
            "send": "Absenden",
            "newsletter": "Unser Newsletter am Morgen",
            "cart": "In den Warenkorb",
            "price": "{p} €",
            "results_for": "{n} Produkte",
        },
        sections="Startseite|Politik|Wirtschaft|Sport|Kultur|Wissen|Meinung|Reise|Region|Wetter",
        footer="Über uns|Kontakt|Impressum|Datenschutz|AGB|Mediadaten|Jobs|Newsletter|RSS|Hilfe",
        cookie_text="Wir und unsere 842 Partner speichern und verwenden Informationen auf Ihrem "
        "Gerät, etwa Cookies, und verarbeiten personenbezogene Daten wie eindeutige Kennungen "
        "und Nutzungsdaten für personalisierte Werbung und Inhalte sowie für Messungen und "
        "Zielgruppenforschung. Sie können Ihre Auswahl jederzeit in den "
        "Datenschutzeinstellungen am Ende der Seite ändern.",
        purposes="Informationen auf einem Gerät speichern und/oder abrufen|Personalisierte "
        "Werbung und Inhalte|Messung von Werbe- und Inhaltsleistung|Entwicklung und "
        "Verbesserung von Angeboten",
        site="Nordstädter Anzeiger",
    ),
    "fr": _lang(
        "fr",
        "gouvernement conseil rivière élection marché tempête école hôpital ministre police "
        "festival budget énergie prix équipe match entraîneur musée ville village rapport étude "
        "chercheurs salariés entreprise tribunal pont route agriculteurs eau climat train "
        "aéroport logement projet vote syndicat grève",
        "le la les des du et pour avec après avant nouveau annonce sera contre sur",
        ui={
            "search": "Résultats de recherche pour « {q} »",
            "found": "{n} résultats",
            "next": "Page suivante",
            "prev": "Précédent",
            "sort": "Trier par : pertinence · date",
            "tag": "Tous les articles sur « {t} »",
            "author": "Les articles de {a}",
            "bio": "{a} suit {t} et {u} pour {s}.",
            "latest": "Dernières actualités",
            "most_read": "Les plus lus",
            "more": "Lire la suite",
            "login": "Connexion à votre compte",
            "email": "Adresse e-mail",
            "password": "Mot de passe",
            "forgot": "Mot de passe oublié ?",
            "register": "Créer un compte gratuit",
            "submit": "Continuer",
            "paywall": "Cet article est réservé aux abonnés. Abonnez-vous pour lire la suite.",
            "offer": "1 € le premier mois, sans engagement",
            "privacy": "Nous respectons votre vie privée",
            "accept": "Tout accepter",
            "reject": "Tout refuser",
            "manage": "Personnaliser",
            "notfound": "Page introuvable",
            "notfound_text": "Désolé, la page que vous recherchez est introuvable. Elle a "
            "peut-être été déplacée ou supprimée. Essayez la recherche ou revenez à l'accueil.",
            "home": "Accueil",
            "js": "Veuillez activer JavaScript pour utiliser ce site.",
            "loading": "Chargement…",
            "video": "Vidéo",
            "views": "{n} vues",
            "more_videos": "Plus de vidéos",
            "contact": "Nous contacter",
            "name": "Votre nom",
            "message": "Message",
            "send": "Envoyer",
            "newsletter": "Inscrivez-vous à notre lettre du matin",
            "cart": "Ajouter au panier",
            "price": "{p} €",
            "results_for": "{n} produits",
        },
        sections="Accueil|International|Politique|Économie|Sport|Culture|Sciences|Opinions"
        "|Voyage|Météo",
        footer="Qui sommes-nous|Contact|Mentions légales|Confidentialité|CGU|Publicité|Emploi"
        "|Newsletters|RSS|Aide",
        cookie_text="Nos 842 partenaires et nous stockons et accédons à des informations sur "
        "votre appareil, comme les cookies, et traitons des données personnelles, comme des "
        "identifiants uniques et des données de navigation, pour la publicité et le contenu "
        "personnalisés, la mesure d'audience et le développement de produits. Vous pouvez "
        "modifier vos choix à tout moment dans les paramètres de confidentialité.",
        purposes="Stocker et/ou accéder à des informations sur un appareil|Publicité et contenu "
        "personnalisés|Mesure de performance|Développer et améliorer les services",
        site="Le Courrier du Nord",
    ),
    "es": _lang(
        "es",
        "gobierno ayuntamiento río elecciones mercado tormenta escuela hospital ministro "
        "policía festival presupuesto energía precios equipo partido entrenador museo ciudad "
        "pueblo informe estudio investigadores trabajadores empresa tribunal puente carretera "
        "agricultores agua clima tren aeropuerto vivienda plan votación sindicato huelga",
        "el la los las de del y para con tras antes nuevo anuncia será contra sobre",
        ui={
            "search": "Resultados de búsqueda para «{q}»",
            "found": "{n} resultados",
            "next": "Página siguiente",
            "prev": "Anterior",
            "sort": "Ordenar por: relevancia · fecha",
            "tag": "Noticias sobre «{t}»",
            "author": "Artículos de {a}",
            "bio": "{a} escribe sobre {t} y {u} en {s}.",
            "latest": "Últimas noticias",
            "most_read": "Lo más leído",
            "more": "Leer más",
            "login": "Inicia sesión",
            "email": "Correo electrónico",
            "password": "Contraseña",
            "forgot": "¿Has olvidado tu contraseña?",
            "register": "Crea una cuenta gratis",
            "submit": "Continuar",
            "paywall": "Este artículo es exclusivo para suscriptores. Suscríbete para seguir "
            "leyendo.",
            "offer": "Primer mes por 1 €",
            "privacy": "Valoramos tu privacidad",
            "accept": "Aceptar todo",
            "reject": "Rechazar todo",
            "manage": "Configurar",
            "notfound": "Página no encontrada",
            "notfound_text": "Lo sentimos, no hemos encontrado la página que buscas. Puede que "
            "se haya movido o eliminado. Prueba con el buscador o vuelve a la portada.",
            "home": "Portada",
            "js": "Necesitas habilitar JavaScript para usar esta aplicación.",
            "loading": "Cargando…",
            "video": "Vídeo",
            "views": "{n} reproducciones",
            "more_videos": "Más vídeos",
            "contact": "Contacto",
            "name": "Nombre",
            "message": "Mensaje",
            "send": "Enviar",
            "newsletter": "Suscríbete a nuestro boletín",
            "cart": "Añadir al carrito",
            "price": "{p} €",
            "results_for": "{n} productos",
        },
        sections="Portada|Internacional|Política|Economía|Deportes|Cultura|Ciencia|Opinión"
        "|Viajes|Tiempo",
        footer="Quiénes somos|Contacto|Aviso legal|Privacidad|Cookies|Publicidad|Empleo"
        "|Boletines|RSS|Ayuda",
        cookie_text="Nosotros y nuestros 842 socios almacenamos y accedemos a información en su "
        "dispositivo, como cookies, y tratamos datos personales, como identificadores únicos y "
        "datos de navegación, para publicidad y contenido personalizados, medición de "
        "audiencias y desarrollo de productos. Puede cambiar sus opciones en cualquier momento.",
        purposes="Almacenar o acceder a información en un dispositivo|Publicidad y contenido "
        "personalizados|Medición del rendimiento|Desarrollar y mejorar servicios",
        site="El Heraldo del Valle",
    ),
    "pt": _lang(
        "pt",
        "governo câmara rio eleição mercado tempestade escola hospital ministro polícia "
        "festival orçamento energia preços equipe jogo técnico museu cidade aldeia relatório "
        "estudo pesquisadores trabalhadores empresa tribunal ponte estrada agricultores água "
        "clima trem aeroporto moradia plano votação sindicato greve",
        "o a os as de do da e para com após antes novo anuncia será contra sobre",
        ui={
            "search": "Resultados da pesquisa por “{q}”",
            "found": "{n} resultados",
            "next": "Próxima página",
            "prev": "Anterior",
            "sort": "Ordenar por: relevância · data",
            "tag": "Notícias sobre “{t}”",
            "author": "Textos de {a}",
            "bio": "{a} cobre {t} e {u} para o {s}.",
            "latest": "Últimas notícias",
            "most_read": "Mais lidas",
            "more": "Leia mais",
            "login": "Entrar na sua conta",
            "email": "E-mail",
            "password": "Senha",
            "forgot": "Esqueceu a senha?",
            "register": "Criar conta grátis",
            "submit": "Continuar",
            "paywall": "Esta matéria é exclusiva para assinantes. Assine para continuar lendo.",
            "offer": "Assine por R$ 1,90 no primeiro mês",
            "privacy": "Valorizamos sua privacidade",
            "accept": "Aceitar tudo",
            "reject": "Rejeitar tudo",
            "manage": "Gerenciar opções",
            "notfound": "Página não encontrada",
            "notfound_text": "Desculpe, não encontramos a página que você procura. Ela pode ter "
            "sido movida ou excluída. Tente a busca ou volte para a página inicial.",
            "home": "Início",
            "js": "Ative o JavaScript para usar este site.",
            "loading": "Carregando…",
            "video": "Vídeo",
            "views": "{n} visualizações",
            "more_videos": "Mais vídeos",
            "contact": "Fale conosco",
            "name": "Nome",
            "message": "Mensagem",
            "send": "Enviar",
            "newsletter": "Receba nossa newsletter",
            "cart": "Adicionar ao carrinho",
            "price": "R$ {p}",
            "results_for": "{n} produtos",
        },
        sections="Início|Mundo|Política|Economia|Esportes|Cultura|Ciência|Opinião|Turismo|Tempo",
        footer="Quem somos|Contato|Expediente|Privacidade|Termos de uso|Anuncie|Trabalhe conosco"
        "|Newsletters|RSS|Ajuda",
        cookie_text="Nós e nossos 842 parceiros armazenamos e acessamos informações no seu "
        "dispositivo, como cookies, e tratamos dados pessoais, como identificadores únicos e "
        "dados de navegação, para anúncios e conteúdo personalizados, medição de audiência e "
        "desenvolvimento de produtos. Você pode mudar suas escolhas a qualquer momento.",
        purposes="Armazenar e/ou acessar informações em um dispositivo|Anúncios e conteúdo "
        "personalizados|Medição de desempenho|Desenvolver e melhorar serviços",
        site="Gazeta do Planalto",
    ),
    "ru": _lang(
        "ru",
        "правительство совет река выборы рынок шторм школа больница министр полиция фестиваль "
        "бюджет энергия цены команда матч тренер музей город деревня доклад исследование учёные "
        "рабочие компания суд мост дорога фермеры вода климат поезд аэропорт жильё план "
        "голосование профсоюз забастовка",
        "и в на с для после до новый заявил будет против о",
        ui={
            "search": "Результаты поиска по запросу «{q}»",
            "found": "Найдено материалов: {n}",
            "next": "Следующая страница",
            "prev": "Назад",
            "sort": "Сортировать: по релевантности · по дате",
            "tag": "Все материалы по теме «{t}»",
            "author": "Материалы автора: {a}",
            "bio": "{a} пишет для издания «{s}» о темах «{t}» и «{u}».",
            "latest": "Последние новости",
            "most_read": "Самое читаемое",
            "more": "Читать далее",
            "login": "Вход в личный кабинет",
            "email": "Электронная почта",
            "password": "Пароль",
            "forgot": "Забыли пароль?",
            "register": "Зарегистрироваться",
            "submit": "Продолжить",
            "paywall": "Этот материал доступен только подписчикам. Оформите подписку, чтобы "
            "продолжить чтение.",
            "offer": "Первый месяц за 1 ₽",
            "privacy": "Мы ценим вашу конфиденциальность",
            "accept": "Принять все",
            "reject": "Отклонить все",
            "manage": "Настройки",
            "notfound": "Страница не найдена",
            "notfound_text": "К сожалению, запрашиваемая страница не найдена. Возможно, она "
            "была перемещена или удалена. Воспользуйтесь поиском или вернитесь на главную.",
            "home": "Главная",
            "js": "Для работы сайта необходимо включить JavaScript.",
            "loading": "Загрузка…",
            "video": "Видео",
            "views": "{n} просмотров",
            "more_videos": "Ещё видео",
            "contact": "Обратная связь",
            "name": "Имя",
            "message": "Сообщение",
            "send": "Отправить",
            "newsletter": "Подпишитесь на утреннюю рассылку",
            "cart": "В корзину",
            "price": "{p} ₽",
            "results_for": "Товаров: {n}",
        },
        sections="Главная|В мире|Политика|Экономика|Спорт|Культура|Наука|Мнения|Туризм|Погода",
        footer="О нас|Контакты|Реклама|Вакансии|Конфиденциальность|Пользовательское соглашение"
        "|Рассылки|RSS|Помощь|Архив",
        cookie_text="Мы и наши 842 партнёра храним информацию на вашем устройстве и получаем к "
        "ней доступ, например файлы cookie, и обрабатываем персональные данные, такие как "
        "уникальные идентификаторы и данные о просмотрах, для персонализированной рекламы и "
        "контента, измерения аудитории и разработки продуктов. Вы можете изменить свой выбор в "
        "любое время в настройках конфиденциальности внизу страницы.",
        purposes="Хранение информации на устройстве и доступ к ней|Персонализированная реклама "
        "и контент|Измерение эффективности|Разработка и улучшение сервисов",
        site="Северный вестник",
    ),
    "zh": _lang(
        "zh",
        "政府 市议会 河流 选举 市场 暴雨 学校 医院 部长 警方 节日 预算 能源 价格 球队 比赛 教练 "
        "博物馆 城市 村庄 报告 研究 科学家 工人 公司 法院 大桥 公路 农民 水资源 气候 铁路 机场 "
        "住房 计划 投票 工会 罢工",
        "的 了 在 和 将 对 发布 宣布 新",
        spaced=False,
        stop="。",
        ui={
            "search": "“{q}”的搜索结果",
            "found": "找到约 {n} 条结果",
            "next": "下一页",
            "prev": "上一页",
            "sort": "排序：相关度 · 时间",
            "tag": "标签：{t}",
            "author": "{a}的文章",
            "bio": "{a}是{s}记者，主要报道{t}和{u}。",
            "latest": "最新新闻",
            "most_read": "阅读排行",
            "more": "阅读全文",
            "login": "登录账户",
            "email": "电子邮箱",
            "password": "密码",
            "forgot": "忘记密码？",
            "register": "免费注册",
            "submit": "下一步",
            "paywall": "本文为付费内容，仅限订阅用户阅读。立即订阅以继续阅读。",
            "offer": "首月仅需1元",
            "privacy": "我们重视您的隐私",
            "accept": "全部接受",
            "reject": "全部拒绝",
            "manage": "管理选项",
            "notfound": "页面未找到",
            "notfound_text": "抱歉，您访问的页面已被删除或暂时无法访问。请尝试搜索，或返回首页。",
            "home": "首页",
            "js": "请启用JavaScript以使用本网站。",
            "loading": "加载中…",
            "video": "视频",
            "views": "{n}次播放",
            "more_videos": "更多视频",
            "contact": "联系我们",
            "name": "姓名",
            "message": "留言",
            "send": "提交",
            "newsletter": "订阅早间新闻简报",
            "cart": "加入购物车",
            "price": "¥{p}",
            "results_for": "共{n}件商品",
        },
        sections="首页|国际|时政|财经|体育|文化|科技|评论|旅游|天气",
        footer="关于我们|联系我们|广告服务|招聘信息|隐私政策|用户协议|网站地图|RSS|帮助中心|举报",
        cookie_text="我们和我们的842家合作伙伴会在您的设备上存储和访问信息（例如Cookie），并处理"
        "唯一标识符和浏览数据等个人数据，用于个性化广告和内容、效果衡量、受众研究以及产品开发。"
        "您可以随时在页面底部的隐私设置中更改您的选择。",
        purposes="在设备上存储和/或访问信息|个性化广告和内容|广告和内容效果衡量|开发和改进服务",
        site="北城日报",
    ),
    "ja": _lang(
        "ja",
        "政府 市議会 川 選挙 市場 台風 学校 病院 大臣 警察 祭り 予算 エネルギー 価格 チーム "
        "試合 監督 博物館 都市 村 報告書 研究 科学者 労働者 会社 裁判所 橋 道路 農家 水 気候 "
        "鉄道 空港 住宅 計画 投票 組合 ストライキ",
        "の が を に で と は 新しい 発表 する",
        spaced=False,
        stop="。",
        ui={
            "search": "「{q}」の検索結果",
            "found": "{n}件",
            "next": "次へ",
            "prev": "前へ",
            "sort": "並び替え：関連度・新着順",
            "tag": "タグ：{t}",
            "author": "{a}の記事一覧",
            "bio": "{a}は{s}の記者。{t}と{u}を担当。",
            "latest": "最新ニュース",
            "most_read": "よく読まれている記事",
            "more": "続きを読む",
            "login": "ログイン",
            "email": "メールアドレス",
            "password": "パスワード",
            "forgot": "パスワードをお忘れの方",
            "register": "無料会員登録",
            "submit": "次へ進む",
            "paywall": "この記事は有料会員限定です。続きを読むには会員登録が必要です。",
            "offer": "初月無料でお試し",
            "privacy": "プライバシーの尊重",
            "accept": "すべて同意",
            "reject": "すべて拒否",
            "manage": "設定を管理",
            "notfound": "ページが見つかりません",
            "notfound_text": "お探しのページは移動または削除された可能性があります。検索するか、"
            "トップページに戻ってください。",
            "home": "トップ",
            "js": "このサイトを利用するにはJavaScriptを有効にしてください。",
            "loading": "読み込み中…",
            "video": "動画",
            "views": "{n}回視聴",
            "more_videos": "その他の動画",
            "contact": "お問い合わせ",
            "name": "お名前",
            "message": "お問い合わせ内容",
            "send": "送信する",
            "newsletter": "朝のニュースレターを受け取る",
            "cart": "カートに入れる",
            "price": "{p}円",
            "results_for": "{n}件の商品",
        },
        sections="トップ|国際|政治|経済|スポーツ|文化|科学|オピニオン|旅行|天気",
        footer="会社概要|お問い合わせ|広告掲載|採用情報|プライバシーポリシー|利用規約"
        "|サイトマップ|RSS|ヘルプ|著作権",
        cookie_text="当社および842社のパートナーは、Cookieなどの情報を端末に保存・アクセスし、"
        "固有の識別子や閲覧データなどの個人データを、パーソナライズされた広告とコンテンツ、"
        "効果測定、オーディエンス調査、製品開発のために処理します。"
        "ページ下部のプライバシー設定から、いつでも選択を変更できます。",
        purposes="端末への情報の保存およびアクセス|パーソナライズされた広告とコンテンツ"
        "|広告とコンテンツの効果測定|サービスの開発と改善",
        site="北都新聞",
    ),
    "ar": _lang(
        "ar",
        "الحكومة المجلس النهر الانتخابات السوق العاصفة المدرسة المستشفى الوزير الشرطة "
        "المهرجان الميزانية الطاقة الأسعار الفريق المباراة المدرب المتحف المدينة القرية "
        "التقرير الدراسة العلماء العمال الشركة المحكمة الجسر الطريق المزارعون المياه المناخ "
        "القطار المطار السكن الخطة التصويت النقابة الإضراب",
        "في من على إلى مع بعد قبل جديد يعلن عن",
        ui={
            "search": "نتائج البحث عن «{q}»",
            "found": "{n} نتيجة",
            "next": "الصفحة التالية",
            "prev": "السابق",
            "sort": "ترتيب حسب: الصلة · الأحدث",
            "tag": "كل الأخبار عن «{t}»",
            "author": "مقالات {a}",
            "bio": "{a} يكتب في {s} عن {t} و{u}.",
            "latest": "آخر الأخبار",
            "most_read": "الأكثر قراءة",
            "more": "اقرأ المزيد",
            "login": "تسجيل الدخول",
            "email": "البريد الإلكتروني",
            "password": "كلمة المرور",
            "forgot": "هل نسيت كلمة المرور؟",
            "register": "أنشئ حساباً مجانياً",
            "submit": "متابعة",
            "paywall": "هذا المقال متاح للمشتركين فقط. اشترك الآن لمواصلة القراءة.",
            "offer": "الشهر الأول مجاناً",
            "privacy": "نحن نحترم خصوصيتك",
            "accept": "قبول الكل",
            "reject": "رفض الكل",
            "manage": "إدارة الخيارات",
            "notfound": "الصفحة غير موجودة",
            "notfound_text": "عذراً، لم نتمكن من العثور على الصفحة التي تبحث عنها. ربما تم نقلها "
            "أو حذفها. جرّب البحث أو عد إلى الصفحة الرئيسية.",
            "home": "الرئيسية",
            "js": "يجب تفعيل جافا سكريبت لاستخدام هذا الموقع.",
            "loading": "جارٍ التحميل…",
            "video": "فيديو",
            "views": "{n} مشاهدة",
            "more_videos": "المزيد من الفيديو",
            "contact": "اتصل بنا",
            "name": "الاسم",
            "message": "الرسالة",
            "send": "إرسال",
            "newsletter": "اشترك في النشرة الصباحية",
            "cart": "أضف إلى السلة",
            "price": "{p} د.إ",
            "results_for": "{n} منتج",
        },
        sections="الرئيسية|العالم|سياسة|اقتصاد|رياضة|ثقافة|علوم|رأي|سفر|طقس",
        footer="من نحن|اتصل بنا|أعلن معنا|وظائف|سياسة الخصوصية|شروط الاستخدام|النشرات البريدية"
        "|RSS|مساعدة|الأرشيف",
        cookie_text="نقوم نحن وشركاؤنا البالغ عددهم 842 بتخزين المعلومات على جهازك والوصول إليها، "
        "مثل ملفات تعريف الارتباط، ومعالجة البيانات الشخصية مثل المعرفات الفريدة وبيانات التصفح "
        "لأغراض الإعلانات والمحتوى المخصص وقياس الجمهور وتطوير المنتجات. يمكنك تغيير اختياراتك في "
        "أي وقت من إعدادات الخصوصية أسفل الصفحة.",
        purposes="تخزين المعلومات على الجهاز أو الوصول إليها|الإعلانات والمحتوى المخصص"
        "|قياس الأداء|تطوير الخدمات وتحسينها",
        site="صحيفة الشمال",
    ),
}

_AUTHORS = (
    "Alex Morgan",
    "Jana Weber",
    "Camille Roux",
    "Lucía Ortega",
    "Rafael Souza",
    "Ирина Смирнова",
    "王丽",
    "佐藤 美咲",
    "سارة حداد",
)


# --- text ------------------------------------------------------------------------------------


def _sentence(rng: random.Random, lang: _Lang, low: int = 6, high: int = 16) -> str:
    count = rng.randint(low, high)
    tokens = [rng.choice(lang.glue if rng.random() < 0.35 else lang.words) for _ in range(count)]
    if not lang.spaced:
        return "".join(tokens) + lang.stop
    text = " ".join(tokens)
    return text[0].upper() + text[1:] + lang.stop


def _headline(rng: random.Random, lang: _Lang) -> str:
    count = rng.randint(4, 9)
    tokens = [rng.choice(lang.words if i % 2 == 0 else lang.glue) for i in range(count)]
    if not lang.spaced:
        return "".join(tokens)
    text = " ".join(tokens)
    return text[0].upper() + text[1:]


def _text(rng: random.Random, lang: _Lang, sentences: int) -> str:
    joiner = " " if lang.spaced else ""
    return joiner.join(_sentence(rng, lang) for _ in range(sentences))


def _date(rng: random.Random) -> str:
    return f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def _slug(rng: random.Random) -> str:
    return f"{rng.randrange(10**7):07d}"


# --- markup styles ----------------------------------------------------------------------------


class _Markup:
    """Builds fragments in one markup style; `page` assembles the document."""

    def __init__(self, style: str, rng: random.Random) -> None:
        self.style = style
        self.rng = rng

    def cls(self, word: str) -> str:
        if self.style == "divsoup":
            return f"{word}-{self.rng.randrange(36**5):x} sc-{self.rng.randrange(16**6):06x}"
        return word

    def attr(self, word: str) -> str:
        return f' class="{self.cls(word)}"'

    def link(self, href: str, text: str, word: str = "") -> str:
        if self.style == "table":
            return f'<A HREF="{href}">{text}</A>'
        extra = self.attr(word) if word else ""
        return f'<a href="{href}"{extra}>{text}</a>'

    def para(self, text: str, word: str = "text") -> str:
        if self.style == "table":
            return f'<FONT FACE="Arial" SIZE="2">{text}</FONT><BR><BR>'
        if self.style == "divsoup":
            return f"<div{self.attr(word)}><span>{text}</span></div>"
        return f"<p{self.attr(word)}>{text}</p>"

    def heading(self, text: str, level: int = 2) -> str:
        if self.style == "table":
            return f"<B><FONT SIZE='{5 - min(level, 3)}'>{text}</FONT></B><BR>"
        if self.style == "divsoup":
            return f"<div{self.attr('heading')} role='heading' aria-level='{level}'>{text}</div>"
        return f"<h{level}>{text}</h{level}>"

    def items(self, entries: list[str], word: str = "list") -> str:
        if self.style == "table":
            rows = "".join(f"<TR><TD>{e}</TD></TR>" for e in entries)
            return f"<TABLE BORDER=0 CELLPADDING=2>{rows}</TABLE>"
        if self.style == "divsoup":
            inner = "".join(f"<div{self.attr('item')}>{e}</div>" for e in entries)
            return f"<div{self.attr(word)}>{inner}</div>"
        return f"<ul{self.attr(word)}>" + "".join(f"<li>{e}</li>" for e in entries) + "</ul>"

    def box(self, inner: str, word: str, tag: str = "div") -> str:
        if self.style == "table":
            return f"<TABLE WIDTH='100%'><TR><TD>{inner}</TD></TR></TABLE>"
        if self.style == "divsoup":
            return f"<div{self.attr(word)}>{inner}</div>"
        return f"<{tag}{self.attr(word)}>{inner}</{tag}>"

    def form(self, fields: list[tuple[str, str, str]], button: str, action: str) -> str:
        rows = []
        for label, kind, name in fields:
            control = (
                f'<textarea name="{name}" rows="6"></textarea>'
                if kind == "textarea"
                else f'<input type="{kind}" name="{name}" autocomplete="{name}">'
            )
            rows.append(f"<label>{label} {control}</label>")
        if self.style == "table":
            body = "".join(f"<TR><TD>{r}</TD></TR>" for r in rows)
            return (
                f'<FORM METHOD="POST" ACTION="{action}"><TABLE>{body}</TABLE>'
                f'<INPUT TYPE="submit" VALUE="{button}"></FORM>'
            )
        body = "".join(f"<div{self.attr('field')}>{r}</div>" for r in rows)
        button_html = f'<button type="submit">{button}</button>'
        return f'<form method="post" action="{action}">{body}{button_html}</form>'

    def page(
        self,
        lang: _Lang,
        title: str,
        main: str,
        *,
        chrome: bool = True,
        aside: str = "",
        head_extra: str = "",
        body_extra: str = "",
    ) -> str:
        rng = self.rng
        nav_items = [self.link(f"/{i}/", s, "nav-link") for i, s in enumerate(lang.sections)]
        extra_nav = rng.randint(0, 25)
        nav_items += [
            self.link(f"/topic/{rng.randrange(10**4)}", rng.choice(lang.words), "nav-link")
            for _ in range(extra_nav)
        ]
        foot_items = [self.link(f"/info/{i}", s) for i, s in enumerate(lang.footer)]
        rtl = ' dir="rtl"' if lang.code == "ar" else ""
        charset = '<meta charset="utf-8">'
        viewport = '<meta name="viewport" content="width=device-width, initial-scale=1">'
        head = f"<title>{title}</title>{charset}{viewport}{head_extra}"
        if self.style == "table":
            header = (
                f"<TABLE WIDTH='100%' BGCOLOR='#003366'><TR><TD><FONT COLOR='white' SIZE='5'>"
                f"{lang.site}</FONT></TD></TR><TR><TD>{' | '.join(nav_items)}</TD></TR></TABLE>"
            )
            side = f"<TD WIDTH='200' VALIGN='top'>{aside}</TD>" if aside else ""
            layout = (
                f"<TABLE WIDTH='100%'><TR><TD VALIGN='top'>{main}</TD>{side}</TR></TABLE>"
                if chrome
                else main
            )
            footer = f"<HR><CENTER><FONT SIZE='1'>{' · '.join(foot_items)}</FONT></CENTER>"
            body = (header + layout + footer) if chrome else layout
            return (
                f'<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">'
                f"<HTML LANG='{lang.code}'{rtl}><HEAD>{head}</HEAD>"
                f"<BODY BGCOLOR='#FFFFFF'>{body}{body_extra}</BODY></HTML>"
            )
        header = (
            self.box(self.link("/", lang.site, "logo"), "masthead", "header")
            + self.box(self.items(nav_items, "menu"), "navigation", "nav")
            if chrome
            else ""
        )
        side = self.box(aside, "sidebar", "aside") if aside else ""
        footer = (
            self.box(
                self.items(foot_items, "footer-links") + f"<small>© 2025 {lang.site}</small>",
                "site-footer",
                "footer",
            )
            if chrome
            else ""
        )
        main_box = self.box(main, "content", "main")
        html = (
            f'<!DOCTYPE html><html lang="{lang.code}"{rtl}><head>{head}</head>'
            f"<body>{header}{main_box}{side}{footer}{body_extra}</body></html>"
        )
        if self.style != "minified":
            html = html.replace("><div", ">\n<div").replace("</ul>", "</ul>\n")
        return html


# --- page kinds -------------------------------------------------------------------------------


def _teasers(m: _Markup, lang: _Lang, count: int, dek_share: float) -> list[str]:
    rng = m.rng
    entries = []
    for _ in range(count):
        teaser = m.link(f"/news/{_date(rng)}/{_slug(rng)}.html", _headline(rng, lang), "title")
        if rng.random() < dek_share:
            teaser += m.para(_sentence(rng, lang, 8, 18), "dek")
        teaser += f"<time datetime='{_date(rng)}'>{_date(rng)}</time>"
        entries.append(teaser)
    return entries


def _most_read(m: _Markup, lang: _Lang) -> str:
    rng = m.rng
    links = [m.link(f"/news/{_slug(rng)}", _headline(rng, lang)) for _ in range(rng.randint(5, 10))]
    return m.heading(lang.ui["most_read"], 3) + m.items(links, "most-read")


def _search_results(m: _Markup, lang: _Lang) -> tuple[str, str]:
    rng = m.rng
    query = rng.choice(lang.words)
    results = []
    for _ in range(rng.randint(8, 20)):
        url = f"/news/{_date(rng)}/{_slug(rng)}.html"
        results.append(
            m.link(url, _headline(rng, lang), "result-title")
            + f"<cite>https://example.org{url}</cite>"
            + m.para(_sentence(rng, lang, 12, 30) + " …", "snippet")
        )
    pages = [m.link(f"?q={query}&page={i}", str(i)) for i in range(1, 11)]
    main = (
        m.heading(lang.ui["search"].format(q=query), 1)
        + m.para(lang.ui["found"].format(n=rng.randint(50, 9000)))
        + m.para(lang.ui["sort"])
        + m.items(results, "results")
        + m.items([*pages, m.link("?page=2", lang.ui["next"])], "pagination")
    )
    return lang.ui["search"].format(q=query), main


def _tag_page(m: _Markup, lang: _Lang) -> tuple[str, str]:
    rng = m.rng
    tag = rng.choice(lang.words)
    title = lang.ui["tag"].format(t=tag)
    teasers = _teasers(m, lang, rng.randint(12, 30), rng.choice([0.0, 0.3, 0.8]))
    main = m.heading(title, 1) + m.items(teasers, "stream") + m.link("?page=2", lang.ui["next"])
    return title, main


def _home_page(m: _Markup, lang: _Lang) -> tuple[str, str]:
    rng = m.rng
    lead = m.heading(m.link(f"/news/{_slug(rng)}", _headline(rng, lang)), 2) + m.para(
        _text(rng, lang, rng.randint(1, 3)), "lead-dek"
    )
    sections = []
    for section in rng.sample(lang.sections[1:], rng.randint(3, 7)):
        sections.append(
            m.heading(section, 2)
            + m.items(_teasers(m, lang, rng.randint(4, 9), rng.choice([0.0, 0.25, 0.5])), "grid")
        )
    main = m.box(lead, "top-story") + m.heading(lang.ui["latest"], 2) + "".join(sections)
    return lang.site, main


def _blog_index(m: _Markup, lang: _Lang) -> tuple[str, str]:
    rng = m.rng
    posts = []
    for _ in range(rng.randint(5, 10)):
        href = f"/{_date(rng).replace('-', '/')}/{_slug(rng)}/"
        posts.append(
            m.box(
                m.heading(m.link(href, _headline(rng, lang)), 2)
                + m.para(f"{_date(rng)} · {rng.choice(_AUTHORS)}", "meta")
                + m.para(_text(rng, lang, rng.randint(2, 4)), "excerpt")
                + m.link(href, lang.ui["more"] + " →", "more-link"),
                "post",
                "article",
            )
        )
    older = m.link("/page/2/", lang.ui["next"])
    return f"{lang.site} – {lang.ui['latest']}", "".join(posts) + older


def _author_page(m: _Markup, lang: _Lang) -> tuple[str, str]:
    rng = m.rng
    author = rng.choice(_AUTHORS)
    topics = rng.sample(lang.words, 2)
    bio = lang.ui["bio"].format(a=author, t=topics[0], u=topics[1], s=lang.site)
    teasers = _teasers(m, lang, rng.randint(10, 25), 0.2)
    main = (
        m.heading(lang.ui["author"].format(a=author), 1)
        + m.para(bio, "bio")
        + m.items(teasers, "author-stream")
    )
    return lang.ui["author"].format(a=author), main


def _login_wall(m: _Markup, lang: _Lang) -> tuple[str, str]:
    rng = m.rng
    ui = lang.ui
    form = m.form(
        [(ui["email"], "email", "email"), (ui["password"], "password", "current-password")],
        ui["submit"],
        "/account/login",
    )
    main = (
        m.heading(ui["login"], 1)
        + form
        + m.link("/account/reset", ui["forgot"])
        + m.para(m.link("/account/register", ui["register"]))
    )
    if rng.random() < 0.5:  # with the story's headline above the form
        main = m.heading(_headline(rng, lang), 1) + m.para(ui["paywall"], "notice") + main
    return ui["login"] + " | " + lang.site, main


def _paywall(m: _Markup, lang: _Lang) -> tuple[str, str]:
    rng = m.rng
    ui = lang.ui
    headline = _headline(rng, lang)
    main = (
        m.heading(headline, 1)
        + m.para(f"{rng.choice(_AUTHORS)} · {_date(rng)}", "byline")
        + m.para(_text(rng, lang, rng.randint(1, 3)), "lead")
        + m.box(
            m.heading(ui["paywall"], 3)
            + m.para(ui["offer"])
            + m.link("/subscribe", ui["register"], "cta")
            + m.link("/account/login", ui["login"]),
            "paywall",
        )
    )
    return f"{headline} | {lang.site}", main


def _consent_wall(m: _Markup, lang: _Lang) -> tuple[str, str]:
    rng = m.rng
    ui = lang.ui
    purposes = m.items([f"<label><input type='checkbox'> {p}</label>" for p in lang.purposes])
    buttons = "".join(
        f"<button type='button'>{ui[b]}</button>" for b in ("accept", "reject", "manage")
    )
    dialog = m.heading(ui["privacy"], 2) + m.para(lang.cookie_text)
    if rng.random() < 0.5:
        dialog += purposes
    dialog += buttons
    if rng.random() < 0.4:  # a vendor list, as in large consent platforms
        vendors = [f"{m.link('/privacy/vendor/' + str(i), 'Vendor ' + str(i))}" for i in range(30)]
        dialog += m.items(vendors, "vendors")
    main = m.box(dialog, "consent-dialog")
    return lang.site, main


def _soft_404(m: _Markup, lang: _Lang) -> tuple[str, str]:
    rng = m.rng
    ui = lang.ui
    suggestions = [
        m.link(f"/news/{_slug(rng)}", _headline(rng, lang)) for _ in range(rng.randint(3, 8))
    ]
    main = (
        m.heading(ui["notfound"], 1)
        + m.para(ui["notfound_text"])
        + m.form([("", "search", "q")], "🔍", "/search")
        + m.heading(ui["latest"], 2)
        + m.items(suggestions)
        + m.link("/", ui["home"])
    )
    title = rng.choice([f"404 | {lang.site}", f"{ui['notfound']} – {lang.site}", lang.site])
    return title, main


def _spa_shell(m: _Markup, lang: _Lang) -> tuple[str, str]:
    rng = m.rng
    root = rng.choice(["root", "app", "__next", "__nuxt"])
    state = json.dumps({"route": f"/news/{_slug(rng)}", "locale": lang.code, "flags": [1, 2, 3]})
    main = (
        f'<div id="{root}"><div class="{m.cls("spinner")}">{lang.ui["loading"]}</div></div>'
        f"<noscript>{lang.ui['js']}</noscript>"
        f"<script>window.__STATE__={state};</script>"
        + "".join(
            f'<script src="/static/js/{rng.randrange(16**8):08x}.js" defer></script>'
            for _ in range(4)
        )
    )
    return lang.site, main


def _media_page(m: _Markup, lang: _Lang) -> tuple[str, str]:
    rng = m.rng
    ui = lang.ui
    headline = _headline(rng, lang)
    player = (
        f'<video controls poster="/img/{_slug(rng)}.jpg"><source src="/v/{_slug(rng)}.mp4" '
        f'type="video/mp4"></video>'
        if rng.random() < 0.5
        else f'<iframe src="https://player.example.net/embed/{_slug(rng)}"></iframe>'
    )
    more = [
        m.link(f"/video/{_slug(rng)}", _headline(rng, lang))
        + f"<span>{rng.randint(1, 9)}:{rng.randint(10, 59)}</span>"
        for _ in range(rng.randint(6, 16))
    ]
    main = (
        m.heading(f"{ui['video']}: {headline}", 1)
        + player
        + m.para(_sentence(rng, lang, 8, 20), "caption")
        + m.para(ui["views"].format(n=rng.randint(100, 90000)) + " · " + _date(rng), "meta")
        + m.heading(ui["more_videos"], 2)
        + m.items(more, "video-grid")
    )
    return f"{ui['video']}: {headline}", main


def _form_page(m: _Markup, lang: _Lang) -> tuple[str, str]:
    rng = m.rng
    ui = lang.ui
    if rng.random() < 0.5:
        title = ui["contact"]
        fields = [
            (ui["name"], "text", "name"),
            (ui["email"], "email", "email"),
            (ui["message"], "textarea", "message"),
        ]
    else:
        title = ui["newsletter"]
        fields = [(ui["email"], "email", "email")]
    main = (
        m.heading(title, 1)
        + m.para(_sentence(rng, lang, 8, 16))
        + m.form(fields, ui["send"], "/form")
    )
    return f"{title} | {lang.site}", main


def _product_listing(m: _Markup, lang: _Lang) -> tuple[str, str]:
    rng = m.rng
    ui = lang.ui
    count = rng.randint(12, 36)
    products = [
        m.link(f"/p/{_slug(rng)}", _headline(rng, lang), "product-name")
        + f"<span>{ui['price'].format(p=rng.randint(5, 400))}</span>"
        + f"<button>{ui['cart']}</button>"
        for _ in range(count)
    ]
    category = rng.choice(lang.words)
    main = (
        m.heading(category, 1)
        + m.para(ui["results_for"].format(n=count))
        + m.items(products, "products")
    )
    return f"{category} | {lang.site}", main


_HTML_KINDS: dict[str, Callable[[_Markup, _Lang], tuple[str, str]]] = {
    "search_results": _search_results,
    "tag_page": _tag_page,
    "home_page": _home_page,
    "blog_index": _blog_index,
    "author_page": _author_page,
    "login_wall": _login_wall,
    "paywall_teaser": _paywall,
    "consent_wall": _consent_wall,
    "soft_404": _soft_404,
    "spa_shell": _spa_shell,
    "media_page": _media_page,
    "form_page": _form_page,
    "product_listing": _product_listing,
}
_NO_CHROME = frozenset({"consent_wall", "spa_shell"})


def _html_page(kind: str, lang: _Lang, style: str, rng: random.Random) -> tuple[str, bytes]:
    m = _Markup(style, rng)
    title, main = _HTML_KINDS[kind](m, lang)
    chrome = kind not in _NO_CHROME or rng.random() < 0.3
    aside = _most_read(m, lang) if chrome and rng.random() < 0.6 else ""
    head_extra = ""
    if rng.random() < 0.5:
        head_extra += f'<meta property="og:site_name" content="{lang.site}">'
    if kind in ("spa_shell", "home_page") and rng.random() < 0.5:
        head_extra += '<link rel="stylesheet" href="/static/main.css">'
    html = m.page(lang, title, main, chrome=chrome, aside=aside, head_extra=head_extra)
    return "text/html; charset=utf-8", html.encode("utf-8")


def _json_page(lang: _Lang, rng: random.Random) -> tuple[str, bytes]:
    if rng.random() < 0.5:
        payload: object = {
            "status": "ok",
            "total": rng.randint(10, 500),
            "items": [
                {
                    "title": _headline(rng, lang),
                    "summary": _sentence(rng, lang),
                    "url": f"/n/{_slug(rng)}",
                }
                for _ in range(rng.randint(5, 20))
            ],
        }
    else:  # an article API response: the text is there, but this is not an HTML page
        payload = {
            "id": _slug(rng),
            "headline": _headline(rng, lang),
            "published": _date(rng),
            "body": [_text(rng, lang, rng.randint(2, 5)) for _ in range(rng.randint(3, 9))],
        }
    content_type = rng.choice(
        ["application/json", "application/json; charset=utf-8", "text/plain", "text/html"]
    )
    return content_type, json.dumps(payload, ensure_ascii=rng.random() < 0.5).encode("utf-8")


def _pdf_page(lang: _Lang, rng: random.Random) -> tuple[str, bytes]:
    text = " ".join(_sentence(rng, LANGS["en"]) for _ in range(rng.randint(5, 30)))
    stream = zlib.compress(f"BT /F1 11 Tf 72 720 Td ({text}) Tj ET".encode("latin-1", "replace"))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, obj in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    content_type = rng.choice(["application/pdf", "application/octet-stream", "text/html"])
    return content_type, bytes(out)


def _feed_page(lang: _Lang, rng: random.Random) -> tuple[str, bytes]:
    items = "".join(
        f"<item><title>{_headline(rng, lang)}</title><link>https://example.org/n/{_slug(rng)}</link>"
        f"<description>{_sentence(rng, lang)}</description><pubDate>{_date(rng)}</pubDate></item>"
        for _ in range(rng.randint(5, 25))
    )
    xml = (
        f'<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel>'
        f"<title>{lang.site}</title><link>https://example.org/</link>{items}</channel></rss>"
    )
    content_type = rng.choice(["application/rss+xml", "text/xml", "application/xml"])
    return content_type, xml.encode("utf-8")


KINDS: tuple[str, ...] = (*_HTML_KINDS, "json", "pdf", "feed_xml")


def _one(kind: str, lang: _Lang, style: str, rng: random.Random) -> tuple[str, bytes]:
    if kind == "json":
        return _json_page(lang, rng)
    if kind == "pdf":
        return _pdf_page(lang, rng)
    if kind == "feed_xml":
        return _feed_page(lang, rng)
    return _html_page(kind, lang, style, rng)


def generate(seed: int = 2026, per_language: int = 4) -> Iterator[NegativePage]:
    """Yield ``len(KINDS) * len(LANGS) * per_language`` pages; styles rotate per page."""
    for kind in KINDS:
        for lang in LANGS.values():
            for i in range(per_language):
                rng = random.Random(f"{seed}/{kind}/{lang.code}/{i}")
                style = STYLES[i % len(STYLES)]
                content_type, body = _one(kind, lang, style, rng)
                url = f"https://{lang.code}.example.org/{kind.replace('_', '-')}/{i}"
                yield NegativePage(kind, lang.code, style, url, content_type, body)
