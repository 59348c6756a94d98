# Команды (локализации самого Discord): команда X — `cmd-X` с `.description`, `.<параметр>`
# и `.<параметр>-description`; вариант C параметра O — `choice-O-C`.
# Имена: строчные, без пробелов, до 32 символов; описания до 100.

cmd-jackal = шакал
    .description = Шакал — настольная игра о пиратах

cmd-new = новая
    .description = Начать новую игру в этом канале
    .players = игроки
    .players-description = Сколько игроков (2x2 — две команды по двое)
    .size = размер
    .size-description = Размер острова
    .pack = клетки
    .pack-description = Из каких клеток составлен остров
    .turn_time = время_хода
    .turn_time-description = Время на каждый ход
    .timeout = просрочка
    .timeout-description = Что будет, если время хода вышло

cmd-move = ход
    .description = Сделать ход, записанный как 2 e5 coin или ship f1
    .action = действие
    .action-description = Ваш ход (начните печатать — появятся ваши ходы словами)
    .game = игра
    .game-description = Какая игра (по умолчанию ваша в этом канале)

cmd-moves = ходы
    .description = Ваше поле и ваши ходы, видны только вам
    .game = игра
    .game-description = Какая игра (по умолчанию ваша в этом канале)

cmd-board = доска
    .description = Поле игры сейчас или после любого хода
    .ply = после
    .ply-description = После скольких шагов истории (0 — начало; по умолчанию сейчас)
    .game = игра
    .game-description = Какая игра (по умолчанию ваша в этом канале)

cmd-games = игры
    .description = Ваши игры: где они, чей ход и до какого времени

cmd-history = история
    .description = Ходы игры словами и поле после любого из них, по шагам
    .game = игра
    .game-description = Какая игра (по умолчанию ваша в этом канале)
    .ply = после
    .ply-description = Открыть поле после стольких шагов (по умолчанию сейчас)

cmd-stats = статистика
    .description = Статистика игрока на этом сервере: результаты, рейтинг и его история, время на ход
    .user = игрок
    .user-description = Чья (по умолчанию ваша)

cmd-leaderboard = рейтинг
    .description = Лучшие игроки этого сервера (или всех серверов) по рейтингу
    .players = игроки
    .players-description = Считать только игры на столько игроков
    .period = период
    .period-description = За всё время (по умолчанию), этот месяц или эту неделю
    .everywhere = везде
    .everywhere-description = Все серверы вместе (по умолчанию этот)

cmd-replay = повтор
    .description = Вся игра анимацией: кадр на ход, путь каждого хода
    .game = игра
    .game-description = Какая игра (по умолчанию ваша в этом канале)

cmd-resign = сдаться
    .description = Сдаться в игре (с подтверждением)
    .game = игра
    .game-description = Какая игра (по умолчанию ваша в этом канале)
cmd-undo = вернуть
    .description = Попросить взять назад свой последний ход (остальные соглашаются или нет)
    .game = игра
    .game-description = Какая игра (по умолчанию ваша в этом канале)

cmd-rules = правила
    .description = Как устроена игра: каждая клетка, фигура и правило
    .topic = тема
    .topic-description = Клетка, фигура или правило (по умолчанию — обзор)

cmd-help = помощь
    .description = Что умеет бот и как играть

cmd-language = язык
    .description = На каком языке бот говорит с вами (или со всем сервером)
    .language = язык
    .language-description = Английский, русский или язык вашего Discord
    .server = для_сервера
    .server-description = Для всего сервера (нужно право «Управлять сервером»)

cmd-remind = напоминания
    .description = Ваши напоминания: за сколько до срока, куда, тихие часы, ежедневная сводка
    .before = заранее
    .before-description = До трёх напоминаний до конца хода (например 12ч, 1ч), выкл или «как в игре»
    .via = куда
    .via-description = Личным сообщением или упоминанием в ветке игры
    .quiet = тихие_часы
    .quiet-description = Без напоминаний в эти часы вашего дня (например 23:00-08:00) или выкл
    .zone = часовой_пояс
    .zone-description = Ваш часовой пояс (например Europe/Moscow)
    .digest = сводка
    .digest-description = Раз в день в это время — список ваших ходов (например 09:00) или выкл

cmd-vacation = отпуск
    .description = Уйти на время: сроки ваших ходов подождут (годовой запас тратится, только когда срок прошёл бы)
    .length = длительность
    .length-description = На сколько (например 5д, 36ч) или выкл, чтобы вернуться; пусто — показать ваш отпуск

cmd-server = сервер
    .description = Правила сервера: дни отпуска в год, самая долгая пауза (менять — с правом «Управлять сервером»)
    .vacation_days = дни_отпуска
    .vacation_days-description = Сколько дней отпуска в год у каждого игрока
    .max_pause_days = макс_пауза
    .max_pause_days-description = Самая долгая пауза, за которую можно голосовать, в днях

cmd-pause = пауза
    .description = Предложить паузу в игре: пока она идёт, сроки ходов стоят (остальные голосуют)
    .length = длительность
    .length-description = На сколько (например 3д, 12ч), не больше, чем разрешает сервер
    .game = игра
    .game-description = Какая игра (по умолчанию ваша в этом канале)

cmd-extend = продлить
    .description = Дать больше времени тому, кто ходит (создатель игры или управляющий сервером)
    .length = длительность
    .length-description = На сколько больше (например 1д, 6ч)
    .game = игра
    .game-description = Какая игра (по умолчанию та, что в этом канале)

cmd-kick = убрать
    .description = Убрать игрока (создатель игры или управляющий сервером)
    .seat = место
    .seat-description = С какого места (номер команды) убрать игрока
    .game = игра
    .game-description = Какая игра (по умолчанию та, что в этом канале)

cmd-cancel = отменить
    .description = Отменить игру (создатель игры или управляющий сервером)
    .game = игра
    .game-description = Какая игра (по умолчанию та, что в этом канале)

cmd-settings = настройки
    .description = Посмотреть или изменить настройки лобби (создатель или управляющий)
    .setting = настройка
    .setting-description = Какую настройку изменить (пусто — показать все)
    .value = значение
    .value-description = Её новое значение
    .game = игра
    .game-description = Какая игра (по умолчанию та, что в этом канале)

choice-players-2 = 2 игрока
choice-players-3 = 3 игрока
choice-players-4 = 4 игрока
choice-players-2x2 = двое на двое
choice-period-all = за всё время
choice-period-month = за этот месяц
choice-period-week = за эту неделю
choice-size-5 = 5×5 · 5 клеток суши (на пробу, не полная игра)
choice-size-7 = 7×7 · 21 клетка суши
choice-size-9 = 9×9 · 45 клеток суши
choice-size-11 = 11×11 · 77 клеток суши
choice-size-13 = 13×13 · 117 клеток суши (как в настольной игре)
choice-pack-full = полный (с дополнением)
choice-pack-classic = классика
choice-turn_time-1h = 1 час
choice-turn_time-6h = 6 часов
choice-turn_time-12h = 12 часов
choice-turn_time-1d = 1 день
choice-turn_time-2d = 2 дня
choice-turn_time-3d = 3 дня
choice-turn_time-7d = 7 дней
choice-timeout-bot = за игрока ходит бот
choice-timeout-resign = место сдаётся
choice-timeout-skip = ход пропускается
choice-language-en = English
choice-language-ru = Русский
choice-language-auto = язык моего Discord
choice-via-dm = личное сообщение
choice-via-thread = ветка игры
choice-via-auto = личное сообщение, если ЛС открыты
